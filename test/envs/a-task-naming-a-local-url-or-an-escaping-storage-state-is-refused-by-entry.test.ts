// A task file names URLs the browser will open and a login file it will read: file:, data: and
// javascript: URLs, and a storage_state outside the task file's folder or the run's login folder,
// are each refused, naming the file, the entry and the field; the other entries still load.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { formatTaskIssue, validateTaskFile } from '../../src/envs/index.js';

const entry = (id: number, fields: Record<string, unknown>) => ({
  sites: ['shopping'],
  task_id: id,
  require_login: false,
  storage_state: null,
  start_url: 'http://shop.test:7770/',
  geolocation: null,
  intent_template: 'find {{x}}',
  instantiation_dict: { x: 'it' },
  intent: 'find it',
  require_reset: false,
  eval: {
    eval_types: ['string_match'],
    reference_answers: { must_include: ['x'] },
    reference_url: '',
    program_html: [],
  },
  intent_template_id: 1,
  ...fields,
});

function taskFile(t: { after: (f: () => void) => void }, entries: object[]): { file: string; dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-task-urls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'tasks'));
  const file = path.join(dir, 'tasks', 'shared.json');
  writeFileSync(file, JSON.stringify(entries));
  return { file, dir };
}

test('file:, data: and javascript: start URLs are each refused with the entry and field named', (t) => {
  const { file } = taskFile(t, [
    entry(0, {}),
    entry(1, { start_url: 'file:///work/run/curve/keys.json' }),
    entry(2, { start_url: 'data:text/html,<script>fetch("file:///etc/passwd")</script>' }),
    entry(3, { start_url: 'javascript:alert(document.cookie)' }),
    entry(4, { start_url: 'http://shop.test:7770/ |AND| FILE:///root/.ssh/id_ed25519' }),
    entry(5, { start_url: 'chrome://settings' }),
  ]);
  const report = validateTaskFile(file);
  assert.deepEqual(
    report.tasks.map((task) => task.id),
    ['0'],
  );
  const byEntry = new Map(report.issues.map((issue) => [issue.entry, issue]));
  for (const [n, scheme] of [
    [1, 'file:'],
    [2, 'data:'],
    [3, 'javascript:'],
    [4, 'file:'],
    [5, 'chrome:'],
  ] as const) {
    const issue = byEntry.get(n);
    assert.ok(issue, `entry ${n} refused`);
    assert.equal(issue.field, 'start_url');
    assert.equal(issue.file, file);
    const line = formatTaskIssue(issue);
    assert.match(
      line,
      new RegExp(`entry ${n} \\(task_id ${n}\\): field start_url: ${scheme} URLs are refused`),
    );
  }
});

test("an evaluator's page to open is held to the same rule, and a host placeholder passes", (t) => {
  const { file } = taskFile(t, [
    entry(0, { start_url: '__SHOPPING__/x' }),
    entry(1, {
      eval: {
        eval_types: ['program_html'],
        reference_answers: null,
        reference_url: '',
        program_html: [
          { url: 'last', locator: '', required_contents: { must_include: ['a'] } },
          { url: 'file:///etc/shadow', locator: '', required_contents: { must_include: ['root'] } },
        ],
      },
    }),
  ]);
  const report = validateTaskFile(file);
  assert.deepEqual(
    report.tasks.map((task) => task.id),
    ['0'],
  );
  assert.equal(report.issues.length, 1);
  assert.equal(report.issues[0]?.field, 'eval.program_html[1].url');
});

test("a storage_state that escapes the task file's folder and the login folder is refused", (t) => {
  const { file, dir } = taskFile(t, [
    entry(0, { require_login: true, storage_state: './.auth/shopping_state.json' }),
    entry(1, { require_login: true, storage_state: '../../../../root/.ssh/id_ed25519' }),
    entry(2, { require_login: true, storage_state: '/etc/passwd' }),
    entry(3, { require_login: true, storage_state: './.auth/../../outside.json' }),
  ]);
  // with no login folder configured, the task file's folder is the one
  const report = validateTaskFile(file);
  assert.deepEqual(
    report.tasks.map((task) => task.id),
    ['0'],
  );
  assert.deepEqual(
    report.issues.map((issue) => [issue.entry, issue.field]),
    [
      [1, 'storage_state'],
      [2, 'storage_state'],
      [3, 'storage_state'],
    ],
  );
  assert.match(
    formatTaskIssue(report.issues[1]!),
    /entry 2 \(task_id 2\): field storage_state: \/etc\/passwd lies outside/,
  );
  // a run's login folder (the suites pass RUN_DIR/auth/<worker>) is the other place a login may be
  const authDir = path.join(dir, 'run', 'auth', 'env-0');
  const inRun = validateTaskFile(file, { authDir });
  assert.equal(inRun.tasks[0]?.storageState, path.join(authDir, '.auth', 'shopping_state.json'));
  assert.deepEqual(
    inRun.issues.map((issue) => issue.entry),
    [1, 2, 3],
  );
});

test('a suite may widen the schemes, and says so where it does', (t) => {
  const { file } = taskFile(t, [entry(0, { start_url: 'data:text/html,<p>a fixture page</p>' })]);
  assert.equal(validateTaskFile(file).tasks.length, 0);
  // (only an explicit list widens it; no suite of tti's does)
  assert.equal(validateTaskFile(file, { urlSchemes: ['http:', 'https:', 'data:'] }).tasks.length, 1);
});
