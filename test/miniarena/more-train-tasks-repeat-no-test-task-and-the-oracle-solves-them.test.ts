// More train tasks for more demonstrations (`tti-run pretrain --demos oracle --train-per-template
// N`): the task files' train tasks first and unchanged, then further instances of the same
// templates that are never a test task; the oracle resolves and solves them on a real instance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  HELD_OUT_TEMPLATES,
  MORE_TRAIN_ID_BASE,
  moreTrainTasks,
  readSplit,
  recordOracleDemos,
} from '../../src/arena/index.js';
import { runCli } from '../helpers/run-fixture.js';

const files = { train: readSplit('train'), test: readSplit('test') };
const key = (t: { intent: string; start_url: string }) => `${t.intent}\n${t.start_url}`;

test('more train tasks keep the files’ tasks first, add only new instances of train templates, and none is a test task', () => {
  const tasks = moreTrainTasks(44, files);
  assert.deepEqual(tasks.slice(0, files.train.length), files.train);
  const more = tasks.slice(files.train.length);
  assert.ok(more.length > 400, `only ${more.length} more tasks`);
  const ids = more.map((t) => t.task_id);
  assert.ok(ids.every((id) => id >= MORE_TRAIN_ID_BASE));
  assert.equal(new Set(ids).size, ids.length);
  const testKeys = new Set(files.test.map(key));
  const trainKeys = new Set(files.train.map(key));
  const moreKeys = new Set(more.map(key));
  assert.equal(moreKeys.size, more.length, 'an instance is added once');
  for (const t of more) {
    assert.ok(!testKeys.has(key(t)), `a test task came back as train: ${t.intent}`);
    assert.ok(!trainKeys.has(key(t)), `a file's train task came back: ${t.intent}`);
    assert.equal(t.miniarena.split, 'train');
    assert.ok(!HELD_OUT_TEMPLATES.includes(t.miniarena.template), t.miniarena.template);
  }
  const perTemplate = new Map<string, number>();
  for (const t of tasks)
    perTemplate.set(t.miniarena.template, (perTemplate.get(t.miniarena.template) ?? 0) + 1);
  const inFiles = new Map<string, number>();
  for (const t of files.train)
    inFiles.set(t.miniarena.template, (inFiles.get(t.miniarena.template) ?? 0) + 1);
  for (const [template, n] of perTemplate) assert.ok(n <= Math.max(44, inFiles.get(template)!), template);
  // a task keeps its id for a larger N, so a demo cache recorded with a smaller one stays valid
  const larger = new Map(moreTrainTasks(66, files).map((t) => [t.task_id, key(t)]));
  for (const t of more) assert.equal(larger.get(t.task_id), key(t), `task ${t.task_id} changed with N`);
  // no more than the files when N is what they already hold
  assert.equal(moreTrainTasks(22, files).length, files.train.length);
});

test('the oracle solves a task beyond the task files on a fresh MiniArena instance', async () => {
  const extra = moreTrainTasks(30, files).find(
    (t) => t.task_id >= MORE_TRAIN_ID_BASE && t.miniarena.template === 'shop_price',
  );
  assert.ok(extra, 'a shop_price task beyond the files');
  const [demo] = await recordOracleDemos([extra], { horizon: 30, emptyAnswer: 'Done', concurrency: 1 });
  assert.equal(demo!.taskId, extra.task_id);
  assert.equal(demo!.success, true, (demo as { error?: string }).error);
  assert.match(demo!.steps.at(-1)!.action ?? '', /^ANSWER \[\$/);
});

test('--train-per-template is checked: a whole number, the train split, oracle demos only', async () => {
  const bad = [
    [
      ['--demos', 'oracle', '--train-per-template', '0'],
      /--train-per-template must be a whole number ≥ 1, got 0/,
    ],
    [['--demos', 'oracle', '--split', 'test', '--train-per-template', '30'], /use it with --split train/],
    [['--demos', 'demos.jsonl', '--train-per-template', '30'], /use them with --demos oracle/],
  ] as const;
  // each refusal is a CLI of its own: started side by side
  const results = await Promise.all(
    bad.map(([args]) => runCli(['pretrain', ...args, '--run-dir', '/nonexistent/never-written'])),
  );
  for (const [i, [, message]] of bad.entries()) {
    const r = results[i]!;
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
  }
});
