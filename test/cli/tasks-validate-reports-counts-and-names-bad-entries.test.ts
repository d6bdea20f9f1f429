import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../../src/util/paths.js';
import { runCli } from '../helpers/run-fixture.js';

const webarena = path.join(projectRoot, '..', 'shared', 'data', 'webarena', 'test.raw.json');

test("tasks validate --json reports WebArena's 812 tasks with the published counts", async () => {
  const result = await runCli(['tasks', 'validate', webarena, '--json']);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    tasks: number;
    byEvalType: Record<string, number>;
    bySite: Record<string, number>;
    errors: unknown[];
  };
  assert.equal(report.tasks, 812);
  assert.deepEqual(report.byEvalType, {
    string_match: 325,
    program_html: 282,
    'url_match+program_html': 129,
    url_match: 66,
    'string_match+url_match': 10,
  });
  assert.deepEqual(report.bySite, {
    gitlab: 196,
    shopping: 192,
    shopping_admin: 182,
    reddit: 114,
    map: 112,
    wikipedia: 16,
  });
  assert.deepEqual(report.errors, []);
});

test('tasks validate exits 1 on a corrupted copy and names the file, the entry and the field', async () => {
  const tasks = JSON.parse(readFileSync(webarena, 'utf8')) as Record<string, unknown>[];
  tasks[7] = { ...tasks[7], eval: { ...(tasks[7]?.eval as object), eval_types: ['telepathy'] } };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tti-tasks-')), 'broken.raw.json');
  writeFileSync(file, JSON.stringify(tasks));
  const result = await runCli(['tasks', 'validate', file]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /broken\.raw\.json/);
  assert.match(result.stderr, /task_id 7/);
  assert.match(result.stderr, /eval_types/);
});

const verified = path.join(projectRoot, '..', 'shared', 'data', 'webarena-verified');

test("tasks validate --json reports WebArena-Verified's 812 tasks by evaluator, task type and status", async () => {
  const result = await runCli(['tasks', 'validate', path.join(verified, 'webarena-verified.json'), '--json']);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as Record<string, unknown>;
  assert.equal(report.tasks, 812);
  assert.deepEqual(report.byEvaluator, { AgentResponseEvaluator: 812, NetworkEventEvaluator: 663 });
  assert.deepEqual(report.byTaskType, { retrieve: 325, navigate: 113, mutate: 374 });
  assert.deepEqual(report.byStatus, {
    SUCCESS: 772,
    NOT_FOUND_ERROR: 28,
    ACTION_NOT_ALLOWED_ERROR: 11,
    PERMISSION_DENIED_ERROR: 1,
  });
  assert.deepEqual(report.errors, []);
  const hard = await runCli([
    'tasks',
    'validate',
    path.join(verified, 'webarena-verified-hard.json'),
    '--json',
  ]);
  assert.equal(hard.code, 0, hard.stderr);
  assert.equal((JSON.parse(hard.stdout) as { tasks: number }).tasks, 258);
});

test('tasks validate names the entry and field of a broken WebArena-Verified entry', async () => {
  const tasks = JSON.parse(readFileSync(path.join(verified, 'webarena-verified.json'), 'utf8')) as Record<
    string,
    unknown
  >[];
  const evals = tasks[3]?.eval as Record<string, unknown>[];
  tasks[3] = { ...tasks[3], eval: [{ ...evals[0], expected: { task_type: 'teleport', status: 'SUCCESS' } }] };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tti-verified-')), 'webarena-verified.json');
  writeFileSync(file, JSON.stringify(tasks));
  const result = await runCli(['tasks', 'validate', file]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /entry 3 \(task_id 3\): field eval\[0\]\.expected\.task_type/);
});
