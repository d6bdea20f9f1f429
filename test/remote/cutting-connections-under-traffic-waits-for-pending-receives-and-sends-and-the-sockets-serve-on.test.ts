// A revoke cuts every connection by unbinding and binding each bound socket again. zeromq.js binds
// on a worker thread, and a bind racing a pending receive or send on the same socket once hung the
// supervisor for good and aborted a worker (libzmq's pipe.cpp assertion). Here a router that
// answers and a push that sends all the time are cut twenty times over real sockets: every cut
// completes, nothing fails to bind again, and both go on carrying messages after the last cut.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as zmq from 'zeromq';
import { z } from 'zod';
import {
  Channel,
  cutBoundConnections,
  decode,
  encode,
  RejectedFrames,
  SocketHold,
} from '../../src/protocol/index.js';

const Ping = z.object({ type: z.literal('ping'), n: z.number() });
const options = { lingerMs: 0, heartbeatIntervalMs: 0, heartbeatTimeoutMs: 0 };

test('a rebind waits for the receive and send under way, and those asked for meanwhile wait for it', async () => {
  const hold = new SocketHold();
  const order: string[] = [];
  let finishReceive: () => void = () => undefined;
  const receive = hold.use(
    () =>
      new Promise<void>((resolve) => {
        finishReceive = () => {
          order.push('receive done');
          resolve();
        };
      }),
  );
  const rebind = hold.hold(async () => {
    order.push('rebind');
  });
  const send = hold.use(async () => {
    order.push('send');
  });
  await sleep(20);
  assert.deepEqual(order, [], 'nothing runs while the receive is pending');
  finishReceive();
  await Promise.all([receive, rebind, send]);
  assert.deepEqual(order, ['receive done', 'rebind', 'send']);
});

test('cutting connections under traffic waits for pending receives and sends, and the sockets serve on', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-cut-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const rejected = new RejectedFrames(() => undefined);
  const router = Channel.create('control', 'router', Ping, rejected, options);
  const push = Channel.create('samples', 'push', null, rejected, options);
  t.after(() => {
    router.close();
    push.close();
  });
  await router.bind(`ipc://${path.join(dir, 'control.sock')}`);
  await push.bind(`ipc://${path.join(dir, 'samples.sock')}`);

  // the router answers every ping; the push sends one every 5 ms
  void router.serve(({ message, peer }) => {
    if (peer !== null) void router.sendTo(peer, { type: 'ping', n: message.n });
  });
  let pushed = 0;
  let pushing = true;
  const pushLoop = (async () => {
    while (pushing) {
      await push.send({ type: 'ping', n: pushed }).catch(() => undefined);
      pushed += 1;
      await sleep(5);
    }
  })();

  const dealer = new zmq.Dealer({ linger: 0 });
  const pull = new zmq.Pull({ linger: 0 });
  dealer.connect(router.endpoint ?? '');
  pull.connect(push.endpoint ?? '');
  t.after(() => {
    dealer.close();
    pull.close();
  });
  let answered = 0;
  let pulled = 0;
  void (async () => {
    for await (const frames of dealer) if (decode(Ping, frames).ok) answered += 1;
  })().catch(() => undefined);
  void (async () => {
    for await (const frames of pull) if (frames.length > 0) pulled += 1;
  })().catch(() => undefined);
  let sending = true;
  const pingLoop = (async () => {
    for (let n = 0; sending; n++) {
      await dealer.send(encode({ type: 'ping', n })).catch(() => undefined);
      await sleep(5);
    }
  })();

  for (let i = 0; i < 100 && (answered === 0 || pulled === 0); i++) await sleep(20);
  assert.ok(answered > 0 && pulled > 0, 'traffic flows before the cuts');
  for (let i = 0; i < 20; i++) {
    const { cut, failed } = await Promise.race([
      cutBoundConnections(),
      sleep(15_000).then(() => assert.fail(`cut ${i + 1} did not complete within 15 s`)),
    ]);
    assert.deepEqual(failed, [], `cut ${i + 1}: every socket binds again`);
    assert.ok(cut.includes('control') && cut.includes('samples'), `cut ${i + 1} names both sockets`);
    await sleep(10 + (i % 4) * 15);
  }
  const answeredBefore = answered;
  const pulledBefore = pulled;
  for (let i = 0; i < 150 && (answered <= answeredBefore + 5 || pulled <= pulledBefore + 5); i++)
    await sleep(20);
  sending = false;
  pushing = false;
  await Promise.all([pingLoop, pushLoop]);
  assert.ok(
    answered > answeredBefore + 5,
    `the router answers after the cuts (${answered - answeredBefore} more)`,
  );
  assert.ok(pulled > pulledBefore + 5, `the push delivers after the cuts (${pulled - pulledBefore} more)`);
});
