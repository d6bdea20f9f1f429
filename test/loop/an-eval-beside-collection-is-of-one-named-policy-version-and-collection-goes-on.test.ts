// The asynchronous TTI loop's eval (rollout.max_policy_lag ≥ 1), with in-memory fakes: it runs the
// fixed subset greedily at the eval horizon, every episode pinned to the version just published
// (inference holds that snapshot), while the next iterations' collection goes on and the learner
// publishes newer versions; its row is written when it ends, the rows in order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../../src/config/index.js';
import { type CollectRequest, freshLoopState, runAsyncTtiLoop } from '../../src/loop/index.js';
import { loopDeps, memoryLearner, newRecord, streamingCollector } from '../helpers/loop-fakes.js';

test('an eval runs pinned to one named version beside collection, and neither collection nor the learner waits for it', async () => {
  const c = resolveConfig(
    {
      iterations: 4,
      rollout_size: 4,
      horizon_schedule: [2, 4],
      eval_every: 2,
      eval_tasks: 3,
      eval_horizon: 9,
      rollout: { max_policy_lag: 1 },
    },
    'test',
  );
  const record = newRecord();
  const evals: CollectRequest[] = [];
  // The eval of iteration 2 ends only once iteration 4's collection is done, which is drawn only
  // after iteration 3 has trained: a loop that held the learner for the eval would never get there.
  let collector: ReturnType<typeof streamingCollector> | null = null;
  collector = streamingCollector(record, {
    evalGate: (request) => {
      evals.push(request);
      return request.iteration === 2 ? collector!.collected(4) : Promise.resolve();
    },
  });
  const learner = memoryLearner(record);
  assert.equal(
    await runAsyncTtiLoop({ ...loopDeps(c, record, { collector, learner }), collector }, freshLoopState(c)),
    'completed',
  );

  const at = (call: string) => {
    const i = record.calls.indexOf(call);
    assert.notEqual(i, -1, `no call '${call}' in ${record.calls.join(' | ')}`);
    return i;
  };
  assert.ok(at('eval i2 h9 v2 ×3') < at('done collect i3 v2'), 'collection went on while the eval ran');
  assert.ok(at('train i3 v3') < at('done eval i2 v2'), 'v3 was published while v2 was evaluated');
  assert.ok(at('serve v3') < at('done collect i4 v3'), 'and collection moved on to it');
  assert.ok(at('done collect i4 v3') < at('done eval i2 v2'));
  assert.ok(at('done eval i2 v2') < at('metrics i2'), 'the row waits for its eval');
  assert.ok(at('metrics i2') < at('metrics i3'), 'the rows stay in order');
  assert.ok(at('eval i4 h9 v4 ×3') < at('done eval i4 v4') && at('done eval i4 v4') < at('metrics i4'));
  // every eval episode is pinned to its named version
  assert.deepEqual(
    evals.map((r) => [...new Set(r.episodes.map((e) => e.policyVersion))]),
    [[2], [4]],
  );

  // the same fixed subset each time, greedy, at the eval horizon, not to replay
  assert.deepEqual(
    evals.map((r) => r.iteration),
    [2, 4],
  );
  assert.deepEqual(
    evals[0]?.episodes.map((e) => e.taskId),
    evals[1]?.episodes.map((e) => e.taskId),
  );
  assert.ok(
    evals
      .flatMap((r) => r.episodes)
      .every((e) => e.greedy && e.horizon === 9 && !e.toReplay && e.split === 'test'),
  );
  const rows = record.rows;
  assert.deepEqual(
    rows.map((r) => r.eval?.episodes ?? null),
    [null, 3, null, 3],
  );
  assert.deepEqual(
    rows.map((r) => r.policyVersion),
    [1, 2, 3, 4],
  );
});

test('the learner waits for an eval only before it would drop the checkpoint of the version the eval is pinned to', async () => {
  const c = resolveConfig(
    {
      iterations: 4,
      rollout_size: 4,
      horizon_schedule: [2],
      eval_every: 2,
      eval_tasks: 3,
      rollout: { max_policy_lag: 1 },
      model: { keep_checkpoints: 2 },
    },
    'test',
  );
  const record = newRecord();
  let collector: ReturnType<typeof streamingCollector> | null = null;
  collector = streamingCollector(record, {
    evalGate: (request) => (request.iteration === 2 ? collector!.collected(4) : Promise.resolve()),
  });
  const learner = memoryLearner(record);
  await runAsyncTtiLoop({ ...loopDeps(c, record, { collector, learner }), collector }, freshLoopState(c));
  const at = (call: string) => record.calls.indexOf(call);
  // v3 is trained while v2 is evaluated (v2's checkpoint is kept beside v3's) …
  assert.ok(at('train i3 v3') < at('done eval i2 v2'), record.calls.join(' | '));
  // … but v4 would leave only v3 and v4 on disk: it waits for the eval of v2
  assert.ok(at('done eval i2 v2') < at('train i4 v4'), record.calls.join(' | '));
  assert.deepEqual(
    record.rows.map((r) => r.eval?.episodes ?? null),
    [null, 3, null, 3],
  );
});
