// The replay worker in a real run: successful trajectories sent to it are kept on disk, each one
// acknowledged once durable, and still there after it is killed with SIGKILL and restarted;
// failures and duplicates are not kept.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as zmq from 'zeromq';
import {
  decode,
  encode,
  Inbound,
  type StatusSnapshot,
  type TrajectoryMessage,
} from '../../src/protocol/index.js';
import type { SupervisorInfo } from '../../src/run/run-dir.js';
import { RunFixture } from '../helpers/run-fixture.js';

const trajectory = (episodeId: string, reward: number): TrajectoryMessage => ({
  type: 'trajectory',
  // a run without CURVE: a worker id, no key
  workerId: 'env-0',
  episodeId,
  taskId: 't',
  site: 'shopping',
  intent: 'a task',
  horizon: 10,
  iteration: 1,
  reward,
  answer: 'ok',
  steps: [
    {
      observation: 'o',
      url: 'http://127.0.0.1/',
      nodes: { ids: [], roles: [], names: [], depths: [], inViewport: [] },
      note: null,
      reply: 'Thought: t\nAction: ANSWER [ok]',
      action: 'stop [ok]',
      policyVersion: 0,
    },
  ],
});

const replay = (s: StatusSnapshot) => s.workers.find((w) => w.id === 'replay-0')!;

/** Sends a trajectory as an env worker does and returns replay's acknowledgement. */
async function store(
  socket: zmq.Dealer,
  t: TrajectoryMessage,
): Promise<{ kept: boolean; duplicate: boolean }> {
  await socket.send(encode(t));
  const [frames] = [await socket.receive()];
  const ack = decode(Inbound.trajectoriesToEnv, frames);
  if (!ack.ok) throw new Error(`bad ack: ${ack.reason}`);
  assert.equal(ack.value.message.episodeId, t.episodeId);
  return { kept: ack.value.message.kept, duplicate: ack.value.message.duplicate };
}

test('kept trajectories are acknowledged and survive a SIGKILL of the replay worker', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  // No env worker: this test is the only sender of trajectories, so the counts are exact.
  await run.startDetached(['workers.env=0']);
  const info = JSON.parse(readFileSync(path.join(run.runDir, 'supervisor.json'), 'utf8')) as SupervisorInfo;
  const push = new zmq.Dealer({ linger: 1000, receiveTimeout: 10000 });
  push.connect(info.endpoints.trajectories);
  const acks = [];
  for (const [id, reward] of [
    ['e1', 1],
    ['e2', 0],
    ['e3', 1],
    ['e1', 1],
  ] as const) {
    acks.push(await store(push, trajectory(id, reward)));
  }
  assert.deepEqual(acks, [
    { kept: true, duplicate: false },
    { kept: false, duplicate: false },
    { kept: true, duplicate: false },
    { kept: true, duplicate: true },
  ]);
  const before = await run.waitFor((s) => replay(s).counters.received === 4, 60_000, 'replay received 4');
  assert.equal(replay(before).counters.kept, 2);
  assert.equal(replay(before).counters.duplicates, 1);

  const replayPid = run.workerPid('replay-0');
  assert.ok(replayPid !== null, 'replay-0 runs');
  process.kill(replayPid, 'SIGKILL');
  const after = await run.waitFor(
    (s) => replay(s).restarts === 1 && replay(s).state === 'ready' && replay(s).counters.kept !== undefined,
    60_000,
    'replay restarted',
  );
  assert.equal(replay(after).counters.kept, 2);
  // A duplicate sent after the restart is still recognised.
  assert.deepEqual(await store(push, trajectory('e3', 1)), { kept: true, duplicate: true });
  const last = await run.waitFor(
    (s) => replay(s).counters.received === 1,
    60_000,
    'replay received after restart',
  );
  assert.equal(replay(last).counters.kept, 2);
  assert.equal(replay(last).counters.duplicates, 1);
  push.close();
  await sleep(10);
});
