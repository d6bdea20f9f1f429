// Credentials for remote workers: `credentials issue` writes one key pair per worker (0600) and an
// allow-list entry; the run's ZAP gate (real ZeroMQ, CURVE over tcp on loopback) lets in the run's
// own key and issued keys, refuses unknown and revoked ones (counted, logged with the key's id or
// prefix, never a secret), and follows the allow-list file as it changes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as zmq from 'zeromq';
import { checkRegisterProof, registerProof, z85Decode, z85Encode } from '../../src/protocol/index.js';
import {
  allowListFile,
  checkKey,
  ensureCurveKeys,
  issueCredential,
  readAllowList,
  readCredential,
  revokeCredential,
  startKeyGate,
  writeCredential,
} from '../../src/run/index.js';
import { runCli } from '../helpers/run-fixture.js';

test('z85 round-trips CURVE keys as zeromq prints them', () => {
  const pair = zmq.curveKeyPair();
  const raw = z85Decode(pair.publicKey);
  assert.equal(raw.length, 32);
  assert.equal(z85Encode(raw), pair.publicKey);
  assert.throws(() => z85Decode('abc'), /multiple of 5/);
  assert.throws(() => z85Decode('abcd~'), /not a Z85 character/);
});

test('issue writes a 0600 credential and an allow-list entry; revoke marks it; bad files are named', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-cred-'));
  try {
    const first = issueCredential(dir, 'env');
    const second = issueCredential(dir, 'env');
    const inference = issueCredential(dir, 'inference');
    assert.deepEqual([first.id, second.id, inference.id], ['env-r0', 'env-r1', 'inference-r0']);
    assert.equal(first.serverPublic, ensureCurveKeys(dir).serverPublic);
    const file = path.join(dir, 'env-r0.json');
    writeCredential(file, first);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readCredential(file), first);
    const list = readAllowList(dir);
    assert.equal(list.keys.length, 3);
    assert.ok(
      !readFileSync(allowListFile(dir), 'utf8').includes(first.secretKey),
      'the allow-list holds no secret',
    );

    const local = ensureCurveKeys(dir);
    assert.deepEqual(checkKey(list, local, first.publicKey, 'control'), { ok: true, userId: 'env-r0' });
    assert.deepEqual(checkKey(list, local, local.clientPublic, 'control'), { ok: true, userId: 'local' });
    const stranger = zmq.curveKeyPair().publicKey;
    const unknown = checkKey(list, local, stranger, 'control');
    assert.ok(!unknown.ok && unknown.reason.includes(stranger.slice(0, 8)));

    revokeCredential(dir, 'env-r0', new Date('2030-01-01T00:00:00Z'));
    const revoked = checkKey(readAllowList(dir), local, first.publicKey, 'control');
    assert.ok(!revoked.ok && /env-r0 .*revoked at 2030-01-01/.test(revoked.reason), JSON.stringify(revoked));
    assert.throws(() => revokeCredential(dir, 'env-r0'), /revoked already/);
    assert.throws(
      () => revokeCredential(dir, 'env-r9'),
      /no key 'env-r9' \(ids: env-r0, env-r1, inference-r0\)/,
    );
    // Ids are never reused, even past a revoked one.
    assert.equal(issueCredential(dir, 'env').id, 'env-r2');

    const broken = readFileSync(allowListFile(dir), 'utf8').replace(second.publicKey, 'short');
    writeFileSync(allowListFile(dir), broken);
    assert.throws(
      () => readAllowList(dir),
      /allow\.json: entry 1 \(id env-r1\), field publicKey: expected a 40-character/,
    );
    writeFileSync(file, JSON.stringify({ ...first, role: 'learner' }));
    assert.throws(() => readCredential(file), /env-r0\.json: field role/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a register proof binds a key id to the holder of its secret', () => {
  const server = zmq.curveKeyPair();
  const worker = zmq.curveKeyPair();
  const other = zmq.curveKeyPair();
  const proof = registerProof(
    { secretKey: worker.secretKey, serverPublic: server.publicKey },
    'env-r0',
    'env',
    'h',
    7,
  );
  const keys = { serverSecret: server.secretKey, clientPublic: worker.publicKey };
  assert.ok(checkRegisterProof(keys, proof, 'env-r0', 'env', 'h', 7));
  assert.ok(!checkRegisterProof(keys, proof, 'env-r1', 'env', 'h', 7), 'another id');
  assert.ok(!checkRegisterProof(keys, proof, 'env-r0', 'env', 'h', 8), 'another pid');
  assert.ok(!checkRegisterProof({ ...keys, clientPublic: other.publicKey }, proof, 'env-r0', 'env', 'h', 7));
  assert.ok(!checkRegisterProof(keys, 'zz', 'env-r0', 'env', 'h', 7), 'garbage is a refusal, not a throw');
});

async function roundTrip(
  endpoint: string,
  serverPublic: string,
  pair: { publicKey: string; secretKey: string },
) {
  const dealer = new zmq.Dealer({
    linger: 0,
    receiveTimeout: 1500,
    curveServerKey: serverPublic,
    curvePublicKey: pair.publicKey,
    curveSecretKey: pair.secretKey,
  });
  let authFailed = false;
  dealer.events.on('handshake:error:auth', () => {
    authFailed = true;
  });
  dealer.connect(endpoint);
  await dealer.send('ping');
  try {
    const [reply] = await dealer.receive();
    return reply?.toString() ?? null;
  } catch {
    return authFailed ? 'refused' : null;
  } finally {
    dealer.close();
  }
}

test('the key gate admits the run key and issued keys over CURVE, refuses unknown and revoked ones', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-gate-'));
  const warnings: string[] = [];
  const local = ensureCurveKeys(dir);
  const env = issueCredential(dir, 'env');
  const gate = await startKeyGate(dir, local, (m) => warnings.push(m));
  const revokedIds: string[] = [];
  gate.onRevoked((entries) => revokedIds.push(...entries.map((e) => e.id)));
  const router = new zmq.Router({
    linger: 0,
    curveServer: true,
    curvePublicKey: local.serverPublic,
    curveSecretKey: local.serverSecret,
    // as the supervisor's control socket, where env workers' keys belong
    zapDomain: 'control',
  });
  try {
    await router.bind('tcp://127.0.0.1:*');
    const endpoint = router.lastEndpoint ?? '';
    void (async () => {
      for await (const [peer] of router) await router.send([peer!, 'pong']);
    })().catch(() => undefined);

    assert.equal(
      await roundTrip(endpoint, local.serverPublic, {
        publicKey: local.clientPublic,
        secretKey: local.clientSecret,
      }),
      'pong',
    );
    assert.equal(await roundTrip(endpoint, local.serverPublic, env), 'pong');
    const stranger = zmq.curveKeyPair();
    assert.equal(await roundTrip(endpoint, local.serverPublic, stranger), 'refused');
    assert.equal(gate.refused, 1);

    // Revoked on disk: the gate follows the file and the next handshake is refused.
    revokeCredential(dir, env.id);
    const deadline = Date.now() + 3000;
    while (revokedIds.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(revokedIds, ['env-r0']);
    assert.equal(await roundTrip(endpoint, local.serverPublic, env), 'refused');
    assert.equal(gate.refused, 2);

    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(
      warnings[0]!,
      new RegExp(
        `refused a connection from 127\\.0\\.0\\.1: unknown key ${stranger.publicKey.slice(0, 8).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ),
    );
    assert.match(warnings[1]!, /key env-r0 \(.{8}…\) was revoked/);
    for (const w of warnings) {
      for (const secret of [env.secretKey, stranger.secretKey, local.serverSecret, local.clientSecret])
        assert.ok(!w.includes(secret), 'no secret in a log line');
    }
  } finally {
    router.close();
    gate.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the credentials command issues, lists and revokes', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-cred-cli-'));
  try {
    const out = path.join(dir, 'w.json');
    const issued = await runCli([
      'credentials',
      'issue',
      '--run-dir',
      dir,
      '--role',
      'inference',
      '--out',
      out,
    ]);
    assert.equal(issued.code, 0, issued.stderr);
    assert.match(issued.stdout, /issued inference-r0/);
    assert.equal(readCredential(out).role, 'inference');
    const listed = await runCli(['credentials', 'list', '--run-dir', dir]);
    assert.match(listed.stdout, /inference-r0\tinference\t.{8}…\tissued .*\tvalid/);
    const missing = await runCli(['credentials', 'revoke', '--run-dir', dir, '--id', 'nope']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /no key 'nope'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
