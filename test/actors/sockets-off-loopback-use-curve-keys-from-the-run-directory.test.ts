// A run whose sockets are on a non-loopback interface (transport.kind=tcp, transport.host = this
// machine's address) encrypts them with CURVE: keys are generated into RUN_DIR/curve/keys.json,
// readable by the owner only; every worker and the CLI use them; a peer without them gets no answer.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as zmq from 'zeromq';
import { decode, encode, Inbound } from '../../src/protocol/index.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;

test('sockets off loopback use CURVE with keys from the run directory', { skip: !external }, async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const status = await run.startDetached(['transport.kind=tcp', `transport.host=${external}`]);
  assert.equal(status.state, 'running', 'every worker registered over CURVE');
  assert.ok(status.workers.every((w) => w.restarts === 0));

  const keysFile = path.join(run.runDir, 'curve', 'keys.json');
  assert.equal(statSync(keysFile).mode & 0o777, 0o600);
  assert.equal(statSync(path.dirname(keysFile)).mode & 0o777, 0o700);
  const info = JSON.parse(readFileSync(path.join(run.runDir, 'supervisor.json'), 'utf8')) as {
    statusEndpoint: string;
  };
  assert.ok(info.statusEndpoint.startsWith(`tcp://${external}:`));

  // A client without the keys: its request never gets through.
  const plain = new zmq.Dealer({ linger: 0, receiveTimeout: 2000 });
  plain.connect(info.statusEndpoint);
  await plain.send(encode({ type: 'status_request' }));
  await assert.rejects(plain.receive(), /timed out|again/i);
  plain.close();

  // The same request with the run's client keys is answered.
  const keys = JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, string>;
  const keyed = new zmq.Dealer({
    linger: 0,
    receiveTimeout: 10000,
    curveServerKey: keys.serverPublic,
    curvePublicKey: keys.clientPublic,
    curveSecretKey: keys.clientSecret,
  });
  keyed.connect(info.statusEndpoint);
  await keyed.send(encode({ type: 'status_request' }));
  const reply = await keyed.receive();
  keyed.close();
  const decoded = decode(Inbound.statusToClient, reply);
  assert.ok(decoded.ok && decoded.value.message.type === 'status_reply');

  // The CLI reads the keys from the run directory.
  const table = await runCli(['status', '--run-dir', run.runDir, '--json']);
  assert.equal(table.code, 0, table.stderr);
  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
});
