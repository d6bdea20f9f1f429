import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { type ActRequestMessage, Inbound } from '../../src/protocol/index.js';
import { Channel, RejectedFrames } from '../../src/protocol/transport.js';

test('Channel.receive returns the next valid message, counting the garbage before it, and null once closed', {
  timeout: 20_000,
}, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-receive-'));
  const logged: string[] = [];
  const rejected = new RejectedFrames((m) => logged.push(m));
  const server = Channel.create('act', 'router', Inbound.actToInference, rejected);
  const client = Channel.create('act', 'dealer', Inbound.actToEnv, new RejectedFrames(() => undefined));
  try {
    await server.bind(`ipc://${dir}/act.sock`);
    client.connect(`ipc://${dir}/act.sock`);
    await client.sendFrames([Buffer.from('not msgpack at all')]);
    await client.send({ type: 'heartbeat_ack' }); // valid protocol, wrong socket
    const request: ActRequestMessage = {
      type: 'act_request',
      policy: 'tfjs',
      workerId: 'env-0',
      episodeId: 'e1',
      step: 4,
      horizon: 10,
      intent: 'find the price',
      observation: {
        text: "[1] link 'Home'",
        url: 'http://127.0.0.1/',
        nodes: { ids: [1], roles: ['link'], names: ['Home'], depths: [1], inViewport: [1] },
        note: null,
        screenshotFrame: null,
      },
      history: [],
      trail: [],
      greedy: true,
      temperature: 1,
    };
    await client.send(request);
    const inbound = await server.receive();
    assert.ok(inbound);
    assert.equal(inbound.message.episodeId, 'e1');
    assert.equal(inbound.message.step, 4);
    assert.ok(inbound.peer, 'a ROUTER names the sender');
    assert.equal(rejected.total, 2);
    assert.equal(rejected.byChannel.get('act'), 2);
    assert.match(logged[0] ?? '', /rejected a frame on act/);

    const pending = server.receive();
    server.close();
    assert.equal(await pending, null);
    assert.equal(await server.receive(), null);
  } finally {
    client.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
