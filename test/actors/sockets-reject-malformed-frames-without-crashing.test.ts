// Malformed frames and unknown message types aimed at every socket a run binds: each is counted
// and dropped, nothing crashes, nothing restarts.
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

before(async () => {
  await run.startDetached(['workers.fault=1']);
  info = JSON.parse(readFileSync(path.join(run.runDir, 'supervisor.json'), 'utf8')) as SupervisorInfo;
});
after(() => run.cleanup());

const BAD_MESSAGES: Buffer[][] = [
  [Buffer.from([0xc1])], // a byte msgpack never uses
  [Buffer.from('{"type":"status_request"}')], // JSON is not our encoding
  [pack({ v: PROTOCOL_VERSION, raw: [], body: { type: 'no_such_type' } })],
  [pack({ v: 99, raw: [], body: { type: 'status_request' } })], // another protocol version
  [pack({ v: PROTOCOL_VERSION - 1, raw: [], body: { type: 'status_request' } })], // an older peer's
  [pack({ v: PROTOCOL_VERSION, raw: [], body: { type: 'register', role: 'wizard', workerId: 7 } })], // wrong field types
  [pack({ v: PROTOCOL_VERSION, raw: [], body: { type: 'status_request' } }), Buffer.alloc(16)], // an undeclared raw frame
  [pack([1, 2, 3])], // not a map
];

async function sendAll(endpoint: string, kind: 'dealer' | 'push'): Promise<void> {
  const socket = kind === 'dealer' ? new zmq.Dealer({ linger: 1000 }) : new zmq.Push({ linger: 1000 });
  socket.connect(endpoint);
  for (const frames of BAD_MESSAGES) await socket.send(frames);
  await sleep(100);
  socket.close();
}

const rejectedBy = (s: StatusSnapshot, id: string) =>
  s.workers.find((w) => w.id === id)?.rejectedFrames ?? -1;

test('every bound socket counts and drops malformed frames and unknown types', async () => {
  const { endpoints } = info;
  const inference = endpoints.act['inference-0'];
  const probe = endpoints.probe['fault-0'];
  assert.ok(inference && probe);
  await sendAll(endpoints.control, 'dealer');
  await sendAll(endpoints.tasks, 'dealer');
  await sendAll(endpoints.status, 'dealer');
  await sendAll(inference, 'dealer');
  await sendAll(endpoints.samples, 'dealer');
  await sendAll(endpoints.trajectories, 'dealer');
  await sendAll(probe, 'dealer');

  const n = BAD_MESSAGES.length;
  const status = await run.waitFor(
    (s) =>
      s.rejectedFrames >= 3 * n &&
      rejectedBy(s, 'inference-0') >= n &&
      rejectedBy(s, 'replay-0') >= 2 * n &&
      rejectedBy(s, 'fault-0') >= n,
    10000,
    'rejections reported by every process',
  );
  assert.equal(status.state, 'running');
  for (const w of status.workers) {
    assert.equal(w.restarts, 0, `${w.id} did not restart`);
    assert.equal(w.state, 'ready');
  }
});

test("a worker's garbage on the control socket is rejected by the supervisor", async () => {
  const before = await run.waitFor(() => true, 5000, 'status');
  await run.inject('fault-0', 'garbage');
  const after = await run.waitFor(
    (s) => s.rejectedFrames >= before.rejectedFrames + 2,
    60_000,
    'garbage rejected',
  );
  assert.equal(after.workers.find((w) => w.id === 'fault-0')?.restarts, 0);
});
