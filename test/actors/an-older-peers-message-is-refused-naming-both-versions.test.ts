// A peer built before a message changed shape (version 1: trajectories and act requests named no
// worker) is told apart from a malformed one: its message is refused by version, naming both, and
// counted and logged like any rejected frame; the receiver goes on with the next message.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pack } from 'msgpackr';
import * as zmq from 'zeromq';
import { decode, encode, Inbound, PROTOCOL_VERSION } from '../../src/protocol/index.js';
import { Channel, RejectedFrames } from '../../src/protocol/transport.js';

/** A trajectory as a version-1 env worker sent it: no worker id, no key. */
const oldTrajectory = {
  type: 'trajectory',
  episodeId: 'old-1',
  taskId: 't',
  site: 'shopping',
  intent: 'a task',
  horizon: 10,
  iteration: 0,
  reward: 1,
  answer: 'ok',
  steps: [],
};

test('a message packed by an older peer is refused by its version, counted and logged, and the next one goes through', {
  timeout: 20_000,
}, async () => {
  assert.ok(PROTOCOL_VERSION >= 2, 'trajectories changed shape in version 2');
  // Had the version stayed, the same message would fail on a field, which says nothing of why.
  const sameVersion = decode(Inbound.trajectoriesToReplay, encode(oldTrajectory));
  assert.ok(!sameVersion.ok && /invalid 'trajectory' at workerId/.test(sameVersion.reason));

  const dir = mkdtempSync(path.join(tmpdir(), 'tti-version-'));
  const logged: string[] = [];
  const rejected = new RejectedFrames((m) => logged.push(m));
  const server = Channel.create('trajectories', 'router', Inbound.trajectoriesToReplay, rejected);
  const old = new zmq.Dealer({ linger: 0 });
  try {
    await server.bind(`ipc://${dir}/trajectories.sock`);
    old.connect(`ipc://${dir}/trajectories.sock`);
    await old.send([pack({ v: PROTOCOL_VERSION - 1, raw: [], body: oldTrajectory })]);
    await old.send(encode({ ...oldTrajectory, episodeId: 'new-1', workerId: 'env-0' }));
    const inbound = await server.receive();
    assert.equal(inbound?.message.episodeId, 'new-1');
    assert.equal(rejected.total, 1);
    assert.equal(rejected.byChannel.get('trajectories'), 1);
    assert.deepEqual(logged, [
      `rejected a frame on trajectories: protocol version ${PROTOCOL_VERSION - 1} (this process speaks ${PROTOCOL_VERSION})`,
    ]);
  } finally {
    old.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
