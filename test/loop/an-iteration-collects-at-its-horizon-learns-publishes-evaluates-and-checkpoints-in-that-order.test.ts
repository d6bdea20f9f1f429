// TTI's loop (src/loop) driven through its two seams by in-memory fakes of our own Collector and
// Learner (test/helpers/loop-fakes.ts): no process, socket or browser. It asserts the order of an
// iteration's steps, the curriculum's horizon at each iteration, the eval cadence, what a row
// counts, and that a stop or an env-step budget ends the loop where it should.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../../src/config/index.js';
import { freshLoopState, runTtiLoop } from '../../src/loop/index.js';
import { loopDeps, memoryCollector, memoryLearner, newRecord } from '../helpers/loop-fakes.js';

const config = (extra: Record<string, unknown> = {}) =>
  resolveConfig(
    { iterations: 3, rollout_size: 4, horizon_schedule: [2, 4, 6], eval_every: 2, eval_tasks: 3, ...extra },
    'test',
  );

test('each iteration draws, collects at its horizon, learns, publishes, evaluates on cadence, then records and checkpoints', async () => {
  const c = config();
  const record = newRecord();
  const deps = loopDeps(c, record, { collector: memoryCollector(record), learner: memoryLearner(record) });
  assert.equal(await runTtiLoop(deps, freshLoopState(c)), 'completed');
  assert.deepEqual(record.calls, [
    'phase collect i1 h2',
    'collect i1 h2 v0 ×4',
    'phase train i1 h2',
    'train i1 v1',
    'serve v1',
    'metrics i1',
    'checkpoint i1 v1',
    'phase collect i2 h4',
    'collect i2 h4 v1 ×4',
    'phase train i2 h4',
    'train i2 v2',
    'serve v2',
    'phase eval i2 h30',
    'eval i2 h30 v2 ×3',
    'metrics i2',
    'checkpoint i2 v2',
    'phase collect i3 h6',
    'collect i3 h6 v2 ×4',
    'phase train i3 h6',
    'train i3 v3',
    'serve v3',
    // the last iteration evaluates whatever the cadence says
    'phase eval i3 h30',
    'eval i3 h30 v3 ×3',
    'metrics i3',
    'checkpoint i3 v3',
    'phase done i3 h6',
  ]);

  const collect = record.requests.filter((r) => r.phase === 'collect').flatMap((r) => r.episodes);
  const evaluate = record.requests.filter((r) => r.phase === 'eval').flatMap((r) => r.episodes);
  assert.ok(collect.every((e) => e.split === 'train' && e.toReplay && !e.greedy && e.minTry === c.min_try));
  assert.ok(
    evaluate.every((e) => e.split === 'test' && !e.toReplay && e.greedy && e.minTry === c.eval_min_try),
  );
  // the eval is one fixed subset of the test split, the same at every eval
  const evalTasks = record.requests
    .filter((r) => r.phase === 'eval')
    .map((r) => r.episodes.map((e) => e.taskId));
  assert.deepEqual(evalTasks[0], evalTasks[1]);
  assert.equal(
    new Set([...collect, ...evaluate].map((e) => e.episodeId)).size,
    collect.length + evaluate.length,
  );
});

test('a row counts the iteration’s episodes, successes and kept trajectories, and the checkpoint carries the totals', async () => {
  const c = config({ iterations: 2 });
  const record = newRecord();
  const deps = loopDeps(c, record, {
    collector: memoryCollector(record, { steps: 3 }),
    learner: memoryLearner(record),
  });
  await runTtiLoop(deps, freshLoopState(c));
  const [first, second] = record.rows;
  assert.ok(first !== undefined && second !== undefined);
  const successes = (i: number) =>
    record.requests
      .filter((r) => r.phase === 'collect' && r.iteration === i)
      .flatMap((r) => r.episodes)
      .filter((e) => Number(e.taskId) % 2 === 0).length;
  assert.equal(first.train.episodes, 4);
  assert.equal(first.train.kept, successes(1));
  assert.equal(first.train.success, successes(1) / 4);
  assert.equal(first.envSteps, 12);
  assert.equal(first.eval, null);
  assert.equal(first.learner?.trajectories, 3);
  assert.equal(second.totalEnvSteps, 24);
  assert.deepEqual(second.replay, { seen: 8, kept: successes(1) + successes(2) });
  assert.equal(second.eval?.episodes, 3);
  assert.equal(second.eval?.horizon, 30);
  const last = record.checkpoints.at(-1);
  assert.deepEqual(last?.totals, {
    envSteps: 24, // collection's steps: the env-step budget counts those only
    episodes: 8 + 3,
    successes: successes(1) + successes(2) + (second.eval?.successes ?? 0),
    seen: 8,
    kept: successes(1) + successes(2),
  });
});

test('a learner that publishes nothing new leaves the policy version where it was and swaps nothing in', async () => {
  const c = config({ iterations: 2, eval_every: 5 });
  const record = newRecord();
  const deps = loopDeps(c, record, {
    collector: memoryCollector(record),
    learner: memoryLearner(record, { publishes: (i) => i !== 1 }),
  });
  await runTtiLoop(deps, freshLoopState(c));
  assert.deepEqual(
    record.calls.filter((call) => /^(train|serve|collect|checkpoint)/.test(call)),
    [
      'collect i1 h2 v0 ×4',
      'train i1 v1',
      'checkpoint i1 v0',
      'collect i2 h4 v0 ×4',
      'train i2 v1',
      'serve v1',
      'checkpoint i2 v1',
    ],
  );
});

test('a stop during a collection returns without a checkpoint of that iteration', async () => {
  const c = config();
  const record = newRecord();
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const collector = memoryCollector(record, {
    hold: (r) => {
      if (r.iteration === 2) setImmediate(stop);
      return r.iteration === 2;
    },
  });
  const deps = loopDeps(c, record, { collector, learner: memoryLearner(record), stopped });
  assert.equal(await runTtiLoop(deps, freshLoopState(c)), 'stopped');
  assert.deepEqual(
    record.checkpoints.map((s) => s.iteration),
    [1],
  );
  assert.equal(record.calls.at(-1), 'collect i2 h4 v1 ×4');
});

test('an env-step budget ends the loop after the iteration that reaches it', async () => {
  const c = config({ iterations: 10, budget_env_steps: 15 });
  const record = newRecord();
  const deps = loopDeps(c, record, {
    collector: memoryCollector(record, { steps: 2 }),
    learner: memoryLearner(record),
  });
  assert.equal(await runTtiLoop(deps, freshLoopState(c)), 'completed');
  // 8 env steps an iteration: the second reaches 16 ≥ 15
  assert.deepEqual(
    record.checkpoints.map((s) => s.iteration),
    [1, 2],
  );
  assert.equal(record.calls.at(-1), 'phase done i2 h4');
});
