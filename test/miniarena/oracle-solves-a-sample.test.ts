import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEMPLATES } from '../../src/arena/index.js';
import { checkTasks, readSplit } from '../../src/arena/oracle/index.js';

// CI-sized: the first test-split task of every template (39), each a fresh episode on a freshly
// reset MiniArena instance in real Chromium, acted through the env's action space and scored by
// the env's evaluators. The full run is `tti-run tasks check --split all`. Each episode starts in
// the slot's kept context, cleaned (env.reuse_context, as configs/miniarena.yaml trains): a new
// renderer per task is most of the time a loaded machine spends here.

test('the oracle solves one test task of every template, in the length the task records', async () => {
  const r = await checkTasks({
    split: 'test',
    perTemplate: 1,
    concurrency: 2,
    env: { reuseContext: true },
  });
  assert.equal(r.tasks, TEMPLATES.length, 'one task per template');
  assert.deepEqual(r.failures, [], 'the oracle failed on these tasks');
  assert.equal(r.rate, 1);
  assert.deepEqual(Object.keys(r.byTemplate).sort(), TEMPLATES.map((t) => t.key).sort());
  // the measured length is reproducible: the same as the one recorded in the task file
  const recorded = new Map(readSplit('test').map((t) => [t.task_id, t.miniarena.oracle_steps]));
  const differ = r.episodes
    .filter((e) => recorded.get(e.task_id) !== null && recorded.get(e.task_id) !== e.steps)
    .map((e) => `${e.task_id} ${e.template}: recorded ${recorded.get(e.task_id)}, now ${e.steps}`);
  assert.deepEqual(differ, []);
  for (const tier of [1, 2, 3] as const) assert.ok(r.byTier[tier].tasks > 0, `tier ${tier} in the sample`);
});
