import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  formatTaskIssue,
  loadTaskFile,
  summarizeTasks,
  TaskFileError,
  validateTaskFile,
  validateTaskFiles,
} from '../../src/envs/index.js';
import { projectRoot } from '../../src/util/paths.js';

const data = path.resolve(projectRoot, '../shared/data');
const rawFile = path.join(data, 'webarena/test.raw.json');
const ttiFile = path.join(data, 'tti/webarena_test_data.jsonl');
const wvFile = path.join(data, 'tti/webvoyager_test_data.jsonl');
const wvSubset = path.join(data, 'tti/webvoyager_subset.jsonl');

const hosts = {
  shopping: 'http://shop.test:7770',
  shopping_admin: 'http://shop.test:7780/admin',
  reddit: 'http://reddit.test:9999',
  gitlab: 'http://gitlab.test:8023',
  map: 'http://map.test:3000',
  wikipedia: 'http://wiki.test:8888',
  homepage: 'http://home.test:4399',
};

test('all 812 WebArena tasks load with the known eval-type and site counts', () => {
  const tasks = loadTaskFile(rawFile, { hosts, authDir: '/auth' });
  const s = summarizeTasks(tasks);
  assert.equal(s.tasks, 812);
  assert.deepEqual(s.byEvalType, {
    string_match: 325,
    program_html: 282,
    'url_match+program_html': 129,
    url_match: 66,
    'string_match+url_match': 10,
  });
  assert.deepEqual(s.bySite, {
    gitlab: 196,
    shopping: 192,
    shopping_admin: 182,
    reddit: 114,
    map: 112,
    wikipedia: 16,
  });
  assert.deepEqual(
    tasks.map((t) => Number(t.id)),
    Array.from({ length: 812 }, (_, i) => i),
  );
});

test('WebArena placeholders become the configured hosts everywhere, and |AND| start URLs become tabs', () => {
  const tasks = loadTaskFile(rawFile, { hosts, authDir: '/auth' });
  const text = JSON.stringify(tasks);
  assert.ok(!/__(SHOPPING|SHOPPING_ADMIN|REDDIT|GITLAB|MAP|WIKIPEDIA|HOMEPAGE)__/.test(text));
  const t0 = tasks[0]!;
  assert.deepEqual(t0.startUrls, ['http://shop.test:7780/admin']);
  assert.equal(t0.storageState, '/auth/.auth/shopping_admin_state.json');
  const multi = tasks.filter((t) => t.startUrls.length > 1);
  assert.equal(multi.length, 5);
  for (const t of multi)
    for (const u of t.startUrls) assert.match(u, /^http:\/\/shop\.test:7770\/[^ ]+\.html$/);
  const orTask = tasks.find((t) => t.eval?.reference_url?.includes(' |OR| '));
  assert.match(
    orTask!.eval!.reference_url!,
    /^http:\/\/reddit\.test:9999\/f\/\w+ \|OR\| http:\/\/reddit\.test:9999\//,
  );
});

test('TTI webarena jsonl loads all 812 lines and a host rewrite points them at our hosts', () => {
  const tasks = loadTaskFile(ttiFile, {
    hostRewrite: { 'http://ec2-98-81-119-107.compute-1.amazonaws.com:8023': 'http://gitlab.test:8023' },
  });
  assert.equal(tasks.length, 812);
  assert.ok(tasks.every((t) => t.kind === 'webarena'));
  const t591 = tasks.find((t) => t.id === '591')!;
  assert.equal(t591.startUrls[0], 'http://gitlab.test:8023/primer/design');
  assert.equal(t591.eval!.reference_url, 'http://gitlab.test:8023/primer/design/-/milestones');
  assert.deepEqual(summarizeTasks(tasks).byEvalType, summarizeTasks(loadTaskFile(rawFile)).byEvalType);
});

test('WebVoyager jsonl files load: 427 tasks and the 78-task subset', () => {
  const all = loadTaskFile(wvFile);
  const sub = loadTaskFile(wvSubset);
  assert.equal(all.length, 427);
  assert.equal(sub.length, 78);
  assert.equal(new Set(all.map((t) => t.sites[0])).size, 13);
  assert.ok(
    all.every((t) => t.kind === 'webvoyager' && t.eval === null && t.startUrls[0]!.startsWith('http')),
  );
});

function tmp(name: string, text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tti-tasks-')), name);
  writeFileSync(file, text);
  return file;
}

test('a corrupted WebArena raw file names the file, the entry, the task_id and the field', () => {
  const list = JSON.parse(readFileSync(rawFile, 'utf8')) as Record<string, Record<string, unknown>>[];
  list[7]!.eval!.reference_answers = { must_include: 'not a list' };
  delete list[300]!.intent;
  const file = tmp('test.raw.json', JSON.stringify(list));
  const report = validateTaskFile(file);
  assert.equal(report.tasks.length, 810);
  assert.equal(report.issues.length, 2);
  const [a, b] = report.issues;
  assert.equal(a!.file, file);
  assert.equal(a!.entry, 7);
  assert.equal(a!.taskId, '7');
  assert.equal(a!.field, 'eval.reference_answers.must_include');
  assert.equal(b!.entry, 300);
  assert.equal(b!.field, 'intent');
  assert.throws(
    () => loadTaskFile(file),
    (e: unknown) =>
      e instanceof TaskFileError &&
      e.message.includes(`${file}: entry 7 (task_id 7): field eval.reference_answers.must_include:`),
  );
});

test('an evaluator listed without its reference is an error on that field', () => {
  const list = JSON.parse(readFileSync(rawFile, 'utf8')) as Record<string, Record<string, unknown>>[];
  const i = list.findIndex((t) => (t.eval!.eval_types as string[]).includes('url_match'));
  list[i]!.eval!.reference_url = '';
  const report = validateTaskFile(tmp('x.json', JSON.stringify(list)));
  assert.equal(report.issues.length, 1);
  assert.equal(report.issues[0]!.field, 'eval.reference_url');
  assert.equal(report.issues[0]!.taskId, String(list[i]!.task_id));
});

test('corrupted jsonl lines (bad JSON, missing field) are named by line number', () => {
  const lines = readFileSync(ttiFile, 'utf8').split('\n');
  lines[3] = lines[3]!.slice(0, 50);
  const obj = JSON.parse(lines[10]!) as Record<string, unknown>;
  delete obj.web_name;
  lines[10] = JSON.stringify(obj);
  const report = validateTaskFile(tmp('tti.jsonl', lines.join('\n')), { format: 'tti-webarena' });
  assert.equal(report.tasks.length, 810);
  assert.deepEqual(
    report.issues.map((i) => [i.entryLabel, i.field]),
    [
      ['line 4', ''],
      ['line 11', 'web_name'],
    ],
  );
  assert.match(report.issues[0]!.message, /not JSON/);

  const wv = readFileSync(wvFile, 'utf8').split('\n');
  wv[2] = JSON.stringify({ ...(JSON.parse(wv[2]!) as object), web: 'not a url' });
  const wr = validateTaskFile(tmp('wv.jsonl', wv.join('\n')));
  assert.deepEqual(
    wr.issues.map((i) => [i.entryLabel, i.taskId, i.field]),
    [['line 3', 'Allrecipes--12', 'web']],
  );
});

test('validating several files gives the CLI its JSON: counts over all files and every error', () => {
  const list = JSON.parse(readFileSync(rawFile, 'utf8')) as Record<string, unknown>[];
  list[5]!.sites = 'gitlab';
  const broken = tmp('broken.raw.json', JSON.stringify(list));
  const v = validateTaskFiles([rawFile, wvSubset, broken]);
  assert.equal(v.tasks, 812 + 78 + 811);
  assert.equal(v.byEvalType.string_match, 325 * 2 - 1);
  assert.equal(v.byEvalType.judge, 78);
  assert.equal(v.errors.length, 1);
  assert.equal(
    formatTaskIssue(v.errors[0]!),
    `${broken}: entry 5 (task_id 5): field sites: Invalid input: expected array, received string`,
  );
  assert.doesNotThrow(() => JSON.stringify(v));
});
