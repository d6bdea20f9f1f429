// The asynchronous TTI loop's eval (rollout.max_policy_lag ≥ 1), with in-memory fakes: it runs the
// fixed subset greedily at the eval horizon under the version just published, while the next
// iterations' collection goes on; the learner publishes nothing newer until it is done, so every
// eval episode acts under that one version; its row is written when it ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../../src/config/index.js';
import { type CollectRequest, freshLoopState, runAsyncTtiLoop } from '../../src/loop/index.js';
import { loopDeps, memoryLearner, newRecord, streamingCollector } from '../helpers/loop-fakes.js';

test('an eval runs under one named version beside collection, and no newer version is published before it ends', async () => {
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
  // The eval of iteration 2 ends only once iteration 3's collection is done.
  let collector: ReturnType<typeof streamingCollector> | null = null;
  collector = streamingCollector(record, {
    evalGate: (request) => {
      evals.push(request);
      return request.iteration === 2 ? collector!.collected(3) : Promise.resolve();
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
  assert.ok(at('done collect i3 v2') < at('done eval i2 v2'));
  assert.ok(at('done eval i2 v2') < at('metrics i2'), 'the row waits for its eval');
  assert.ok(at('done eval i2 v2') < at('train i3 v3'), 'v3 is not published while v2 is evaluated');
  assert.ok(at('eval i4 h9 v4 ×3') < at('done eval i4 v4') && at('done eval i4 v4') < at('metrics i4'));

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
