// A frame over a socket's limit (transport.limits) aimed at every socket a run binds: libzmq refuses
// it from its length prefix by cutting the sender's connection, each process counts the cut (workers
// in their heartbeat's counters, the supervisor in its log), the frame never reaches a decoder (no
// rejected frame), nothing crashes or restarts, and the sender's next small message goes through.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pack } from 'msgpackr';
import * as zmq from 'zeromq';
import { PROTOCOL_VERSION, type StatusSnapshot } from '../../src/protocol/index.js';
import type { SupervisorInfo } from '../../src/run/run-dir.js';
import { RunFixture } from '../helpers/run-fixture.js';

const run = RunFixture.create();
let info: SupervisorInfo;
const MiB = 1024 * 1024;

before(async () => {
  await run.startDetached([
    'workers.fault=1',
    'transport.limits.frame_mb=1',
    'transport.limits.trajectory_frame_mb=2',
  ]);
  info = JSON.parse(readFileSync(path.join(run.runDir, 'supervisor.json'), 'utf8')) as SupervisorInfo;
});
after(() => run.cleanup());

/** Sends one frame of `bytes`, waits, then a malformed small one: it arrives once the peer redials. */
async function oversizeThenSmall(endpoint: string, bytes: number): Promise<void> {
  const socket = new zmq.Dealer({ linger: 1000 });
  socket.connect(endpoint);
  await socket.send(Buffer.alloc(bytes, 0xc1));
  await sleep(500);
  await socket.send(pack({ v: PROTOCOL_VERSION, raw: [], body: { type: 'no_such_type' } }));
  await sleep(300);
  socket.close();
}

const worker = (s: StatusSnapshot, id: string) => s.workers.find((w) => w.id === id);
const cutsOf = (s: StatusSnapshot, id: string) => worker(s, id)?.counters.cutConnections ?? 0;
const supervisorCuts = (channel: string) =>
  readFileSync(path.join(run.runDir, 'logs', 'supervisor.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.includes(`a connection on ${channel} (`) && line.includes('was cut')).length;

test('every bound socket cuts, counts and drops a frame over its limit, and goes on', async () => {
  const { endpoints } = info;
  const inference = endpoints.act['inference-0'];
  const probe = endpoints.probe['fault-0'];
  assert.ok(inference && probe);
  const start = await run.waitFor(
    (s) => s.workers.every((w) => w.lastHeartbeatMs !== null),
    10_000,
    'heartbeats',
  );
  const cutsBefore = (id: string) => cutsOf(start, id);

  // 2 MiB: over the 1 MiB of control, tasks, status, act and probe; 3 MiB over trajectories' 2 MiB.
  for (const endpoint of [endpoints.control, endpoints.tasks, endpoints.status, inference, probe])
    await oversizeThenSmall(endpoint, 2 * MiB);
  for (const endpoint of [endpoints.samples, endpoints.trajectories])
    await oversizeThenSmall(endpoint, 3 * MiB);

  const status = await run.waitFor(
    (s) =>
      cutsOf(s, 'inference-0') > cutsBefore('inference-0') &&
      cutsOf(s, 'fault-0') > cutsBefore('fault-0') &&
      cutsOf(s, 'replay-0') >= cutsBefore('replay-0') + 2 &&
      // the small message after each cut arrived and was refused as an unknown type
      s.rejectedFrames >= start.rejectedFrames + 3 &&
      (worker(s, 'replay-0')?.rejectedFrames ?? 0) >= (worker(start, 'replay-0')?.rejectedFrames ?? 0) + 2,
    15_000,
    'cuts counted by every process',
  );
  for (const channel of ['control', 'tasks', 'status']) assert.ok(supervisorCuts(channel) >= 1, channel);
  // Only the small frames were decoded: the oversized ones never reached the protocol.
  assert.equal(status.rejectedFrames, start.rejectedFrames + 3);
  assert.equal(status.state, 'running');
  for (const w of status.workers) {
    assert.equal(w.restarts, 0, `${w.id} did not restart`);
    assert.equal(w.state, 'ready');
  }
});

test('a frame within the limit is taken as before', async () => {
  const before = await run.waitFor(() => true, 5000, 'status');
  // Just under 1 MiB on status: decoded (and refused as garbage), not cut.
  const socket = new zmq.Dealer({ linger: 1000 });
  socket.connect(info.endpoints.status);
  await socket.send(Buffer.alloc(MiB - 1024, 0xc1));
  const after = await run.waitFor(
    (s) => s.rejectedFrames > before.rejectedFrames,
    10_000,
    'the frame rejected',
  );
  socket.close();
  assert.equal(after.rejectedFrames, before.rejectedFrames + 1);
});
