// TTI's loop (src/loop) with in-memory fakes of its Collector and Learner: a run resumed from the
// state it checkpointed after iteration k asks for the same episodes — tasks, ids, seeds, horizons,
// policy versions — as a run that never stopped (the random stream travels in the checkpoint).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../../src/config/index.js';
import { type CollectRequest, freshLoopState, runTtiLoop } from '../../src/loop/index.js';
import { loopDeps, memoryCollector, memoryLearner, newRecord } from '../helpers/loop-fakes.js';

const asked = (requests: readonly CollectRequest[], from: number) =>
  requests
    .filter((r) => r.iteration >= from)
    .map((r) => ({
      phase: r.phase,
      iteration: r.iteration,
      policyVersion: r.policyVersion,
      episodes: r.episodes,
    }));

test('resumed after iteration 2 of 5, the loop asks for what it would have asked', async () => {
  const c = resolveConfig(
    {
      iterations: 5,
      rollout_size: 6,
      horizon_schedule: [3, 5],
      eval_every: 2,
      eval_tasks: 2,
      seed: 7,
    },
    'test',
  );
  const succeeds = (spec: { taskId: string; iteration: number }) =>
    (Number(spec.taskId) + spec.iteration) % 3 === 0;

  const whole = newRecord();
  await runTtiLoop(
    loopDeps(c, whole, { collector: memoryCollector(whole, { succeeds }), learner: memoryLearner(whole) }),
    freshLoopState(c),
  );

  // The first run, killed once iteration 2 is checkpointed (its iteration 3 never finishes).
  const killed = newRecord();
  let kill: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    kill = resolve;
  });
  const holding = memoryCollector(killed, {
    succeeds,
    hold: (r) => {
      if (r.iteration === 3) setImmediate(kill);
      return r.iteration === 3;
    },
  });
  const how = await runTtiLoop(
    loopDeps(c, killed, { collector: holding, learner: memoryLearner(killed), stopped }),
    freshLoopState(c),
  );
  assert.equal(how, 'stopped');
  const checkpoint = killed.checkpoints.at(-1);
  assert.equal(checkpoint?.iteration, 2);
  assert.equal(checkpoint?.policyVersion, 2);

  const resumed = newRecord();
  await runTtiLoop(
    loopDeps(c, resumed, {
      collector: memoryCollector(resumed, { succeeds }),
      learner: memoryLearner(resumed),
    }),
    checkpoint!,
  );
  assert.equal(
    resumed.requests[0]?.iteration,
    3,
    'the resumed run starts at the iteration after its checkpoint',
  );
  assert.deepEqual(asked(resumed.requests, 3), asked(whole.requests, 3));
  assert.deepEqual(resumed.checkpoints.at(-1), whole.checkpoints.at(-1));
  // the draws vary between iterations, so the equality above says something
  const drawn = (i: number) =>
    whole.requests.find((r) => r.iteration === i && r.phase === 'collect')?.episodes.map((e) => e.taskId);
  assert.notDeepEqual(drawn(3), drawn(4));
});
