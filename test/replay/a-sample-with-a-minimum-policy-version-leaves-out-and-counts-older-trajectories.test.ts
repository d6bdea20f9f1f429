// Replay's sampling under rollout.max_policy_lag: a sample request with `minPolicyVersion` gets only
// the kept trajectories every step of which was sampled under that version or a newer one (one step
// older is enough to leave a trajectory out), up to maxTrajectories of them, and the batch says how
// many it left out, as replay's status counters do. Without it, the whole buffer is drawn from, as
// TTI samples it. The replay worker is a real process of a real run, its log written before it starts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import * as zmq from 'zeromq';
import { decode, encode, Inbound, type StatusSnapshot, type Trajectory } from '../../src/protocol/index.js';
import { ReplayLog } from '../../src/replay/index.js';
import { RunDir, readSupervisorInfo } from '../../src/run/run-dir.js';
import { paddedTrajectory } from '../helpers/replay-records.js';
import { RunFixture } from '../helpers/run-fixture.js';

/** A kept trajectory whose steps were chosen by these policy versions, in order. */
function sampledUnder(episodeId: string, iteration: number, versions: number[]): Trajectory {
  const base = paddedTrajectory(episodeId);
  const step = base.steps[0]!;
  return { ...base, iteration, steps: versions.map((policyVersion) => ({ ...step, policyVersion })) };
}

const replay = (s: StatusSnapshot) => s.workers.find((w) => w.role === 'replay');

test('a sample with a minimum policy version leaves out, and counts, the trajectories an older policy sampled', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const stored = [
    sampledUnder('r-i1-c1', 1, [0, 0]),
    sampledUnder('r-i2-c1', 2, [1, 1]),
    // one step of v1 among v2's: sampled partly under the older policy
    sampledUnder('r-i3-c1', 3, [1, 2, 2]),
    sampledUnder('r-i3-c2', 3, [2, 2]),
    sampledUnder('r-i4-c1', 4, [2, 3]),
    sampledUnder('r-i4-c2', 4, [3]),
    sampledUnder('r-i4-c3', 4, [3, 3]),
  ];
  const { log } = ReplayLog.open(path.join(run.runDir, 'replay'), 1000);
  for (const trajectory of stored) log.append(trajectory);
  log.close();

  // No env worker: nothing is collected, and the learner is never told to train.
  await run.startDetached(['workers.env=0']);
  await run.waitFor((s) => replay(s)?.counters.kept === stored.length, 60_000, 'replay read its log');
  const info = readSupervisorInfo(new RunDir(run.runDir));
  const learner = new zmq.Dealer({ linger: 0, receiveTimeout: 10_000 });
  t.after(() => learner.close());
  learner.connect(info.endpoints.samples);
  const ask = async (request: { maxTrajectories: number; minPolicyVersion?: number }) => {
    await learner.send(encode({ type: 'sample_request', seed: 7, ...request }));
    const reply = decode(Inbound.samplesToLearner, [...(await learner.receive())]);
    assert.ok(reply.ok, 'a sample batch');
    return reply.value.message;
  };

  const all = await ask({ maxTrajectories: 100 });
  assert.deepEqual(
    all.trajectories.map((x) => x.episodeId),
    stored.map((x) => x.episodeId),
  );
  assert.equal(all.stale, undefined, 'no bound asked, none counted');

  const fromV2 = await ask({ maxTrajectories: 100, minPolicyVersion: 2 });
  assert.deepEqual(
    fromV2.trajectories.map((x) => x.episodeId),
    ['r-i3-c2', 'r-i4-c1', 'r-i4-c2', 'r-i4-c3'],
  );
  assert.equal(fromV2.stale, 3);

  // The draw is among those within the bound: as many as asked, none older.
  const two = await ask({ maxTrajectories: 2, minPolicyVersion: 2 });
  assert.equal(two.trajectories.length, 2);
  const within = new Set(fromV2.trajectories.map((x) => x.episodeId));
  assert.ok(
    two.trajectories.every((x) => within.has(x.episodeId)),
    two.trajectories.map((x) => x.episodeId).join(),
  );
  assert.equal(two.stale, 3);

  const fromV3 = await ask({ maxTrajectories: 100, minPolicyVersion: 3 });
  assert.deepEqual(
    fromV3.trajectories.map((x) => x.episodeId),
    ['r-i4-c2', 'r-i4-c3'],
  );
  assert.equal(fromV3.stale, 5);

  const seen = await run.waitFor(
    (s) => replay(s)?.counters.staleLeftOut === 5,
    30_000,
    "replay's status counts what the latest sample left out",
  );
  assert.equal(replay(seen)?.counters.minPolicyVersion, 3);
  assert.equal(replay(seen)?.counters.kept, stored.length, 'nothing left out is dropped from the buffer');
});
