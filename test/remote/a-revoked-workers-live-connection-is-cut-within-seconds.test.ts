// A key revoked while its worker is connected: the gate (following the allow-list file) cuts every
// connection on the process's bound sockets, the revoked worker's redial is refused by ZAP, and
// nothing it sends is delivered from 5 s after the revoke on; a worker with a valid key redials by
// itself and is heard again. Real ZeroMQ, CURVE over tcp on loopback, the revoke through the CLI.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as zmq from 'zeromq';
import { z } from 'zod';
import { Channel, encode, RejectedFrames } from '../../src/protocol/index.js';
import { ensureCurveKeys, issueCredential, startKeyGate } from '../../src/run/index.js';
import { runCli } from '../helpers/run-fixture.js';

const Ping = z.object({ type: z.literal('ping'), from: z.string(), n: z.number() });

test("a revoked worker's live connection is cut within 5 seconds; a valid one redials", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-revoke-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const local = ensureCurveKeys(dir);
  const revoked = issueCredential(dir, 'env');
  const kept = issueCredential(dir, 'env');
  const warnings: string[] = [];
  const gate = await startKeyGate(dir, local, (m) => warnings.push(m));
  t.after(() => gate.close());
  const control = Channel.create('control', 'router', Ping, new RejectedFrames(() => undefined), {
    lingerMs: 0,
    heartbeatIntervalMs: 0,
    heartbeatTimeoutMs: 0,
    curve: local,
  });
  t.after(() => control.close());
  await control.bind('tcp://127.0.0.1:*');
  const endpoint = control.endpoint ?? '';
  const heard = new Map<string, number>();
  void control.serve(({ message }) => {
    heard.set(message.from, Date.now());
  });

  const workers = [revoked, kept].map((credential) => {
    const dealer = new zmq.Dealer({
      linger: 0,
      curveServerKey: local.serverPublic,
      curvePublicKey: credential.publicKey,
      curveSecretKey: credential.secretKey,
    });
    dealer.connect(endpoint);
    let n = 0;
    let sending = false;
    const timer = setInterval(() => {
      // a send that finds no connection waits: never more than one at a time (zeromq.js refuses two)
      if (sending) return;
      sending = true;
      dealer
        .send(encode({ type: 'ping', from: credential.id, n: n++ }))
        .catch(() => undefined)
        .finally(() => {
          sending = false;
        });
    }, 50);
    return { id: credential.id, dealer, timer };
  });
  t.after(() => {
    for (const w of workers) {
      clearInterval(w.timer);
      w.dealer.close();
    }
  });

  for (let i = 0; i < 100 && heard.size < 2; i++) await sleep(50);
  assert.equal(heard.size, 2, 'both workers heard before the revoke');
  const result = await runCli(['credentials', 'revoke', '--run-dir', dir, '--id', revoked.id]);
  assert.equal(result.code, 0, result.stderr);
  const revokedAt = Date.now();
  await sleep(6000);
  const lastFromRevoked = heard.get(revoked.id) ?? 0;
  assert.ok(
    lastFromRevoked - revokedAt < 5000,
    `the revoked worker was heard ${lastFromRevoked - revokedAt} ms after the revoke`,
  );
  // ZeroMQ redials by itself; the gate refuses the revoked key's new handshake
  for (let i = 0; i < 200 && gate.refused < 1; i++) await sleep(50);
  assert.ok(gate.refused >= 1, "the revoked worker's redial was refused");
  // the valid worker redials by itself (ZeroMQ's reconnect) and is heard again after the cut
  const cutSeen = Date.now();
  for (let i = 0; i < 200 && (heard.get(kept.id) ?? 0) <= cutSeen; i++) await sleep(50);
  assert.ok((heard.get(kept.id) ?? 0) > cutSeen, 'the valid worker redialled and is heard');
  assert.ok(
    warnings.some((w) => /revoked env-r0: cut the connections on control/.test(w)),
    warnings.join('\n'),
  );
});
