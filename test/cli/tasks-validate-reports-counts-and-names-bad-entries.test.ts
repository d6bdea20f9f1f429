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
