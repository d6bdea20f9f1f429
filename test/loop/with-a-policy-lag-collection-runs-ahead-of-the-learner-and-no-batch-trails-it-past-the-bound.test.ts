// The asynchronous TTI loop (src/loop/async-tti-loop.ts, rollout.max_policy_lag ≥ 1) driven by an
// in-memory streaming collector and learner (test/helpers/loop-fakes.ts): no process, socket or
// browser. Collection of the next iterations is queued before the learner trains and finishes while
// it trains; no batch is sampled by a policy more than the bound behind the one that trains on it;
// an episode that is gets counted and left out, and the learner is asked to train on nothing older
// than the bound (replay leaves such trajectories out, counted in the row); the curriculum asks for
// exactly the episodes the synchronous loop asks for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../../src/config/index.js';
import { freshLoopState, runAsyncTtiLoop, runTtiLoop } from '../../src/loop/index.js';
import {
  loopDeps,
  memoryCollector,
  memoryLearner,
  newRecord,
  streamingCollector,
} from '../helpers/loop-fakes.js';

const config = (lag: number, extra: Record<string, unknown> = {}) =>
  resolveConfig(
    {
      iterations: 4,
      rollout_size: 4,
      horizon_schedule: [2, 4, 6],
      eval_every: 10,
      eval_tasks: 3,
      rollout: { max_policy_lag: lag },
      ...extra,
    },
    'test',
  );

test('with lag 1, iteration k+1 is queued before k trains and is collected while the learner trains', async () => {
  const c = config(1);
  const record = newRecord();
  const collector = streamingCollector(record);
  // Training iteration k lasts until iteration k+1's collection is done: a loop that waited for the
  // learner before collecting would never get there.
  const learner = memoryLearner(record, {
    until: (k) => (k < c.iterations ? collector.collected(k + 1) : Promise.resolve()),
  });
  assert.equal(
    await runAsyncTtiLoop({ ...loopDeps(c, record, { collector, learner }), collector }, freshLoopState(c)),
    'completed',
  );
  const at = (call: string) => {
    const i = record.calls.indexOf(call);
    assert.notEqual(i, -1, `no call '${call}' in ${record.calls.join(' | ')}`);
    return i;
  };
  assert.ok(
    at('collect i2 h4 v0 ×4') < at('train i1 v1'),
    'iteration 2 was queued before iteration 1 trained',
  );
  assert.ok(at('train i1 v1') < at('done collect i2 v0'), 'and collected while it trained');
  assert.ok(at('serve v1') < at('collect i3 h6 v1 ×4'), 'iteration 3 is drawn once v1 is served, no earlier');
  assert.ok(at('collect i3 h6 v1 ×4') < at('train i2 v2'));
  assert.ok(at('metrics i1') < at('metrics i2') && at('checkpoint i3 v3') < at('checkpoint i4 v4'));

  assert.equal(record.rows.length, 4);
  for (const row of record.rows) {
    assert.ok(row.lag !== undefined && row.lag.bound === 1 && row.lag.max <= 1, JSON.stringify(row.lag));
    assert.equal(row.lag.stale, 0);
    assert.equal(row.train.episodes, 4);
  }
  // iteration 2 ran under v0 and trained v1 → v2: one version behind
  assert.equal(record.rows[1]?.lag?.max, 1);
  assert.equal(record.checkpoints.at(-1)?.totals.seen, 16);
  // each checkpoint is its own iteration's: horizon, version, and its row came first
  assert.deepEqual(
    record.checkpoints.map((s) => [s.iteration, s.horizon, s.policyVersion]),
    [
      [1, 2, 1],
      [2, 4, 2],
      [3, 6, 3],
      [4, 6, 4],
    ],
  );
});

test('with lag 2, at most two iterations run ahead: iteration k+3 waits for k to train', async () => {
  const c = config(2, { iterations: 5 });
  const record = newRecord();
  const collector = streamingCollector(record);
  const learner = memoryLearner(record);
  await runAsyncTtiLoop({ ...loopDeps(c, record, { collector, learner }), collector }, freshLoopState(c));
  const at = (call: string) => record.calls.findIndex((x) => x.startsWith(call));
  assert.ok(at('collect i3 ') < at('train i1 '), 'iterations 1–3 are queued at the start');
  assert.ok(at('train i1 ') < at('collect i4 '), 'iteration 4 only after iteration 1 trained');
  assert.ok(at('train i2 ') < at('collect i5 '));
  assert.ok(record.rows.every((r) => r.lag !== undefined && r.lag.max <= 2 && r.lag.stale === 0));
});

test('an episode sampled more versions behind than the bound is counted stale and left out of its batch', async () => {
  const c = config(1);
  const record = newRecord();
  // One episode of iteration 3 reports actions of v0, two versions behind the v2 iteration 3 trains on.
  const collector = streamingCollector(record, {
    versionOf: (spec, served) => (spec.episodeId === 'run-i3-c2' ? 0 : served),
  });
  const learner = memoryLearner(record);
  await runAsyncTtiLoop({ ...loopDeps(c, record, { collector, learner }), collector }, freshLoopState(c));
  const third = record.rows[2]!;
  assert.deepEqual(third.lag, { bound: 1, max: 2, mean: third.lag?.mean, stale: 1, leftOut: 0 });
  assert.equal(third.train.episodes, 3, 'the stale episode is not in the batch');
  assert.equal(third.envSteps, 6);
  assert.ok(record.rows.filter((r) => r !== third).every((r) => r.lag?.stale === 0));
  // it ran: its env steps count against the budget, and replay saw it
  assert.equal(record.checkpoints.at(-1)?.totals.envSteps, 32);
  assert.equal(record.checkpoints.at(-1)?.totals.seen, 16);
});

test('the learner trains on nothing older than the bound, and what replay left out is in the row and the live lag', async () => {
  const c = config(2, { iterations: 5 });
  const record = newRecord();
  const collector = streamingCollector(record);
  const learner = memoryLearner(record, { stale: (k) => 10 * k });
  const live: number[] = [];
  await runAsyncTtiLoop(
    { ...loopDeps(c, record, { collector, learner }), collector, onLag: (l) => live.push(l.leftOut) },
    freshLoopState(c),
  );
  // iteration k improves on v(k−1): nothing sampled before v(k−1−2)
  assert.deepEqual(record.minPolicyVersions, [0, 0, 0, 1, 2]);
  assert.deepEqual(
    record.rows.map((r) => r.lag?.leftOut),
    [10, 20, 30, 40, 50],
  );
  assert.equal(live.at(-1), 50);
});

test('the synchronous loop asks the learner for no bound: it samples the whole buffer, as TTI does', async () => {
  const c = config(0);
  const record = newRecord();
  await runTtiLoop(
    loopDeps(c, record, { collector: memoryCollector(record), learner: memoryLearner(record) }),
    freshLoopState(c),
  );
  assert.deepEqual(record.minPolicyVersions, [undefined, undefined, undefined, undefined]);
  assert.ok(record.rows.every((r) => r.lag === undefined));
});

test('the curriculum is unchanged: the asynchronous loop asks for the episodes the synchronous one does', async () => {
  for (const eval_every of [1, 2]) {
    const asked = async (lag: number) => {
      const c = config(lag, { eval_every });
      const record = newRecord();
      const seams =
        lag === 0
          ? { collector: memoryCollector(record), learner: memoryLearner(record) }
          : { collector: streamingCollector(record), learner: memoryLearner(record) };
      const deps = loopDeps(c, record, seams);
      if (lag === 0) await runTtiLoop(deps, freshLoopState(c));
      else
        await runAsyncTtiLoop(
          { ...deps, collector: seams.collector as ReturnType<typeof streamingCollector> },
          freshLoopState(c),
        );
      // the asynchronous eval pins its episodes to the version it names; the episodes are the same
      return record.requests
        .map((r) => ({
          phase: r.phase,
          iteration: r.iteration,
          episodes: r.episodes.map(({ policyVersion, ...e }) => {
            if (lag > 0 && r.phase === 'eval') assert.equal(policyVersion, r.policyVersion);
            else assert.equal(policyVersion, undefined);
            return e;
          }),
        }))
        .sort((a, b) => a.iteration - b.iteration || a.phase.localeCompare(b.phase));
    };
    const sync = await asked(0);
    const lagged = await asked(1);
    assert.deepEqual(lagged, sync, 'same tasks, ids, seeds, horizons, temperatures');
    const shape = (rs: typeof sync) =>
      rs.map((r) => ({ ...r, episodes: r.episodes.map(({ taskId: _t, taskFile: _f, ...rest }) => rest) }));
    assert.deepEqual(shape(lagged), shape(sync));
    assert.deepEqual(
      [
        ...new Set(
          lagged.filter((r) => r.phase === 'collect').map((r) => `${r.iteration}:${r.episodes[0]?.horizon}`),
        ),
      ],
      ['1:2', '2:4', '3:6', '4:6'],
    );
  }
});
