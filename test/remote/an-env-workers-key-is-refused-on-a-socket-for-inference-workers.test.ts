// Each CURVE server socket of a run names itself as its ZAP domain, and the run's key gate admits a
// credential only on the sockets its role uses (src/run/socket-roles.ts). Real ZeroMQ, CURVE over
// tcp on loopback, the real gate, the real act relay and a real weights channel: an env worker's
// key is refused at the relay's back and on the weights PUB (inference workers' sockets) and
// admitted at the relay's front; an inference worker's key the other way round; the run's own key
// everywhere. Each refusal is counted and logged with the key's id and the socket, never a secret.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as zmq from 'zeromq';
import { startActRelay } from '../../src/actors/supervisor/act-relay.js';
import { bodyOf, Channel, type CurveKeys, encode, RejectedFrames } from '../../src/protocol/index.js';
import {
  checkKey,
  ensureCurveKeys,
  issueCredential,
  REMOTE_ROLES_BY_SOCKET,
  readAllowList,
  startKeyGate,
} from '../../src/run/index.js';
import { freePortBlock } from '../helpers/free-port-block.js';

interface KeyPair {
  publicKey: string;
  secretKey: string;
}
const runKey = (keys: CurveKeys): KeyPair => ({ publicKey: keys.clientPublic, secretKey: keys.clientSecret });
const clientOptions = (serverPublic: string, pair: KeyPair) => ({
  linger: 0,
  curveServerKey: serverPublic,
  curvePublicKey: pair.publicKey,
  curveSecretKey: pair.secretKey,
});

/** Resolves 'refused' when the server's ZAP says no to this socket's key; never otherwise. */
const refusal = (socket: zmq.Socket) =>
  new Promise<'refused'>((resolve) => socket.events.on('handshake:error:auth', () => resolve('refused')));
const timeout = (ms: number) => new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), ms).unref());

test('the role table: the run key passes everywhere, a credential only where its role connects', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-zap-table-'));
  try {
    const local = ensureCurveKeys(dir);
    const env = issueCredential(dir, 'env');
    const inference = issueCredential(dir, 'inference');
    const list = readAllowList(dir);
    const admits = (key: string, domain: string) => checkKey(list, local, key, domain).ok;
    for (const domain of [...Object.keys(REMOTE_ROLES_BY_SOCKET), '', 'no-such-socket'])
      assert.ok(admits(local.clientPublic, domain), `the run's own key on ${domain || '(no domain)'}`);
    const takes = (key: string) =>
      Object.keys(REMOTE_ROLES_BY_SOCKET)
        .filter((domain) => admits(key, domain))
        .sort();
    assert.deepEqual(takes(env.publicKey), ['act', 'control', 'relay-front', 'tasks', 'trajectories']);
    assert.deepEqual(takes(inference.publicKey), ['control', 'relay-back', 'weights']);
    // A socket the table does not name, or one with no domain, takes no credential.
    for (const domain of ['', 'no-such-socket', 'constructor'])
      assert.ok(!admits(env.publicKey, domain) && !admits(inference.publicKey, domain), domain);
    const refused = checkKey(list, local, env.publicKey, 'weights');
    assert.ok(
      !refused.ok &&
        /^key env-r0 \(.{8}…\) is for an env worker; this socket takes inference workers' keys only$/.test(
          refused.reason,
        ),
      JSON.stringify(refused),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an env worker's key is refused on the sockets for inference workers and admitted on its own", {
  timeout: 60_000,
}, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-zap-roles-'));
  const warnings: string[] = [];
  const keys = ensureCurveKeys(dir);
  const env = issueCredential(dir, 'env');
  const inference = issueCredential(dir, 'inference');
  const gate = await startKeyGate(dir, keys, (m) => warnings.push(m));
  const closers: (() => void)[] = [() => gate.close(), () => rmSync(dir, { recursive: true, force: true })];
  t.after(() => {
    for (const close of closers.reverse()) close();
  });
  const port = await freePortBlock(3);
  const front = `tcp://127.0.0.1:${port}`;
  const back = `tcp://127.0.0.1:${port + 1}`;
  // The supervisor's act relay as a listening run starts it: its two ends are CURVE servers with
  // their own domains, relay-front (env workers) and relay-back (inference workers).
  const relay = await startActRelay(
    { front, back },
    { lingerMs: 0, curve: keys, onError: (error) => assert.fail(error) },
  );
  closers.push(() => relay.close());
  // …and the learner's weights PUB as learner-sockets.ts opens it: a Channel named `weights`.
  const tuning = { lingerMs: 0, heartbeatIntervalMs: 0, heartbeatTimeoutMs: 0, curve: keys };
  const weights = Channel.create('weights', 'pub', null, new RejectedFrames(() => undefined), tuning);
  closers.push(() => weights.close());
  await weights.bind(`tcp://127.0.0.1:${port + 2}`);

  // One inference worker behind the relay: it says act_ready as a remote inference worker does (the
  // relay sends requests only to workers so announced), and answers each request's turn with 'pong'.
  const behind = async (pair: KeyPair): Promise<zmq.Dealer | 'refused' | 'no answer'> => {
    const dealer = new zmq.Dealer(clientOptions(keys.serverPublic, pair));
    const admitted = new Promise<'admitted'>((r) => dealer.events.on('handshake', () => r('admitted')));
    const refused = refusal(dealer);
    dealer.connect(back);
    const verdict = await Promise.race([admitted, refused, timeout(5000)]);
    if (verdict !== 'admitted') {
      dealer.close();
      return verdict;
    }
    const ready = () =>
      void dealer.send(encode({ type: 'act_ready', workerId: 'inference-r0' })).catch(() => {});
    ready();
    const announcing = setInterval(ready, 200);
    closers.push(() => {
      clearInterval(announcing);
      dealer.close();
    });
    void (async () => {
      for await (const [peer, ...request] of dealer) {
        const turn = bodyOf(request) as { episodeId: string; step: number } | null;
        await dealer.send([peer ?? Buffer.alloc(0), ...encode({ ...turn, type: 'pong' })]);
      }
    })().catch(() => undefined);
    return dealer;
  };
  // An env worker asking for an action at the relay's front: 'pong' is an answer from behind it.
  const ask = async (pair: KeyPair): Promise<string> => {
    const dealer = new zmq.Dealer(clientOptions(keys.serverPublic, pair));
    try {
      const refused = refusal(dealer);
      dealer.connect(front);
      await dealer.send(encode({ type: 'ping', episodeId: 'e1', step: 0 }));
      // (a receive still pending when the socket closes rejects: that is no answer)
      const answer = dealer.receive().then(
        (reply) => String((bodyOf(reply) as { type?: string } | null)?.type ?? ''),
        () => 'closed',
      );
      return await Promise.race([answer, refused, timeout(5000)]);
    } finally {
      dealer.close();
    }
  };
  // A subscriber to the weights: 'weights' once one of the learner's publishes reaches it.
  const subscribe = async (pair: KeyPair): Promise<string> => {
    const sub = new zmq.Subscriber(clientOptions(keys.serverPublic, pair));
    sub.subscribe();
    const publishing = setInterval(() => void weights.sendFrames(['weights']).catch(() => undefined), 50);
    try {
      const refused = refusal(sub);
      sub.connect(`tcp://127.0.0.1:${port + 2}`);
      const received = sub.receive().then(
        ([frame]) => frame?.toString() ?? '',
        () => 'closed',
      );
      return await Promise.race([received, refused, timeout(5000)]);
    } finally {
      clearInterval(publishing);
      sub.close();
    }
  };

  // An env worker's key cannot stand in as an inference worker behind the relay.
  assert.equal(await behind(env), 'refused');
  assert.equal(gate.refused, 1);
  // The inference worker's own key can, and an env key is admitted at the front it uses.
  assert.ok((await behind(inference)) instanceof zmq.Dealer);
  assert.equal(await ask(env), 'pong');
  assert.equal(await ask(runKey(keys)), 'pong', "the run's own key, as a local env worker's");
  assert.equal(gate.refused, 1);
  // The weights go to inference workers only.
  assert.equal(await subscribe(env), 'refused');
  assert.equal(gate.refused, 2);
  assert.equal(await subscribe(inference), 'weights');
  assert.equal(await subscribe(runKey(keys)), 'weights', "the run's own key, as a local inference worker's");
  // …and an inference worker's key has no business at the env workers' front.
  assert.equal(await ask(inference), 'refused');
  assert.equal(gate.refused, 3);

  assert.equal(warnings.length, 3, warnings.join('\n'));
  assert.match(
    warnings[0] ?? '',
    /^refused a connection from 127\.0\.0\.1: key env-r0 \(.{8}…\) is for an env worker; this socket takes inference workers' keys only \(socket relay-back\)$/,
  );
  assert.match(warnings[1] ?? '', /key env-r0 \(.{8}…\) is for an env worker; .* \(socket weights\)$/);
  assert.match(
    warnings[2] ?? '',
    /key inference-r0 \(.{8}…\) is for an inference worker; this socket takes env workers' keys only \(socket relay-front\)$/,
  );
  for (const w of warnings)
    for (const secret of [env.secretKey, inference.secretKey, keys.serverSecret, keys.clientSecret])
      assert.ok(!w.includes(secret), 'no secret in a log line');
});
