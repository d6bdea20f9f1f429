// After `register`, every message that names a worker id speaks with a key, and only that worker's
// key may name it: a credential its own id, the run's own key its spawned workers. A holder of one
// credential who names another worker (with its own key, a forged tag, or none) is dropped, counted
// and logged by key id; the named worker and the run's spawned workers go on as before.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { speakerSignature } from '../../src/actors/roles/remote-join.js';
import {
  Channel,
  type CurveSocketKeys,
  Inbound,
  RejectedFrames,
  Requester,
  registerProof,
  sharedSecret,
  speakerKey,
} from '../../src/protocol/index.js';
import {
  type Credential,
  checkSpeaker,
  ensureCurveKeys,
  issueCredential,
  RunDir,
  readAllowList,
  readSupervisorInfo,
  revokeCredential,
  SpeakerCheck,
  type SpeakerClaim,
} from '../../src/run/index.js';
import { freePortBlock } from '../helpers/free-port-block.js';
import { detachedRun, listeningTrainArgs, runCli } from '../helpers/run-fixture.js';

const joinOf = (c: Credential) => ({ endpoint: 'tcp://127.0.0.1:1', credential: c });

test('only a worker’s own key speaks for it; every refusal names the key', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-speaker-'));
  try {
    const keys = ensureCurveKeys(dir);
    const env0 = issueCredential(dir, 'env');
    const env1 = issueCredential(dir, 'env');
    const gone = issueCredential(dir, 'env');
    revokeCredential(dir, gone.id);
    const ctx = {
      keys,
      allowList: readAllowList(dir),
      shared: (clientPublic: string) => sharedSecret(keys.serverSecret as string, clientPublic),
    };
    const says = (claim: SpeakerClaim) => checkSpeaker(claim, ctx);
    const reason = (claim: SpeakerClaim) => {
      const v = says(claim);
      return v.ok ? 'ok' : `${v.keyId}: ${v.reason}`;
    };
    // What the worker shell signs with: its credential when joined, the run's key when spawned.
    const asEnv0 = speakerSignature(joinOf(env0), undefined, 'env-r0').key;
    const local = (id: string) => speakerSignature(null, keys, id).key;
    assert.equal(reason({ workerId: 'env-r0', key: asEnv0 }), 'ok');
    assert.equal(reason({ workerId: 'env-0', key: local('env-0') }), 'ok');
    assert.equal(reason({ workerId: 'learner-0', key: local('learner-0') }), 'ok');
    // env-r1 names env-r0 with its own, valid key.
    const byEnv1 = speakerSignature(joinOf(env1), undefined, 'env-r0').key;
    assert.equal(reason({ workerId: 'env-r0', key: byEnv1 }), 'env-r1: key env-r1 spoke for env-r0');
    // …with env-r0's id and a tag made with its own secret.
    const forged = speakerKey(
      { secretKey: env1.secretKey, serverPublic: keys.serverPublic },
      'env-r0',
      'env-r0',
    );
    assert.equal(
      reason({ workerId: 'env-r0', key: forged }),
      'env-r0: a message for env-r0 does not prove key env-r0',
    );
    // …with env-r0's valid tag for a different message: a tag is bound to its worker id.
    assert.equal(
      reason({ workerId: 'env-0', key: asEnv0 }),
      'env-r0: a message for env-0 does not prove key env-r0',
    );
    // A credential names a spawned worker, the run's key names a credential's worker.
    assert.equal(
      reason({ workerId: 'env-0', key: speakerSignature(joinOf(env0), undefined, 'env-0').key }),
      'env-r0: key env-r0 spoke for env-0',
    );
    assert.equal(reason({ workerId: 'env-r0', key: local('env-r0') }), 'local: key local spoke for env-r0');
    assert.equal(reason({ workerId: 'env-r0' }), 'null: a message for env-r0 names no key');
    const revoked = speakerSignature(joinOf(gone), undefined, gone.id).key;
    assert.match(reason({ workerId: gone.id, key: revoked }), /^env-r2: key env-r2 was revoked at /);
    assert.equal(
      reason({ workerId: 'env-r9', key: { id: 'env-r9', tag: 'ab' } }),
      'env-r9: key env-r9 is not in this run (for env-r9)',
    );
    assert.equal(
      reason({ workerId: 'env-r0', key: { id: 'env-r0', tag: 'not hex' } }).includes('does not prove'),
      true,
    );
    // A run without CURVE has only this machine's workers: nothing to check.
    assert.deepEqual(checkSpeaker({ workerId: 'env-r0' }, { ...ctx, keys: null }), { ok: true });

    // The supervisor's check counts by key and logs once a second, never a secret.
    const lines: string[] = [];
    const check = new SpeakerCheck(
      keys as CurveSocketKeys,
      () => ctx.allowList,
      (m) => lines.push(m),
    );
    assert.equal(check.speaks({ workerId: 'env-r0', key: asEnv0 }, 'tasks'), true);
    for (let i = 0; i < 5; i++)
      assert.equal(check.speaks({ workerId: 'env-r0', key: byEnv1 }, 'tasks'), false);
    assert.equal(check.speaks({ workerId: 'env-r0' }, 'control'), false);
    assert.equal(check.refused, 6);
    assert.deepEqual(
      [...check.byKey],
      [
        ['env-r1', 5],
        ['none', 1],
      ],
    );
    assert.deepEqual(lines, ['dropped a message on tasks: key env-r1 spoke for env-r0']);
    for (const secret of [env0.secretKey, env1.secretKey, keys.serverSecret as string, keys.clientSecret])
      assert.ok(!lines.join('\n').includes(secret));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a second credential naming another worker over real sockets is dropped and counted', {
  timeout: 120_000,
}, async (t) => {
  const { run, closers } = detachedRun(t);
  const env0 = issueCredential(run.runDir, 'env');
  const env1 = issueCredential(run.runDir, 'env');
  const port = await freePortBlock();
  const started = await runCli(
    listeningTrainArgs(run.runDir, `tcp://127.0.0.1:${port}`, [
      'workers.env=0',
      'workers.inference=0',
      'remote.env=2',
      'remote.inference=1',
      'supervisor.heartbeat_interval_ms=200',
      'supervisor.heartbeat_timeout_ms=60000',
      'supervisor.shutdown_timeout_ms=5000',
      'log_level=info',
    ]),
  );
  assert.equal(started.code, 0, started.stderr);
  await run.waitFor((s) => s.state === 'running', 60_000, 'the run to start');
  const endpoints = readSupervisorInfo(new RunDir(run.runDir)).endpoints;

  const rejected = new RejectedFrames(() => undefined);
  const connect = (c: Credential) => {
    const tuning = {
      lingerMs: 0,
      heartbeatIntervalMs: 1000,
      heartbeatTimeoutMs: 5000,
      curve: { serverPublic: c.serverPublic, clientPublic: c.publicKey, clientSecret: c.secretKey },
    };
    const control = Channel.create('control', 'dealer', Inbound.controlToWorker, rejected, tuning);
    const tasks = Channel.create('tasks', 'dealer', Inbound.tasksToEnv, rejected, tuning);
    control.connect(endpoints.control);
    tasks.connect(endpoints.tasks);
    const sides = { control: new Requester(control), tasks: new Requester(tasks) };
    closers.push(() => {
      sides.control.close();
      sides.tasks.close();
    });
    return sides;
  };
  const register = async (c: Credential, control: Requester<typeof Inbound.controlToWorker>) => {
    const proof = registerProof(
      { secretKey: c.secretKey, serverPublic: c.serverPublic },
      c.id,
      'env',
      'h',
      4242,
    );
    const reply = await control.request(
      {
        type: 'register',
        role: 'env',
        workerId: c.id,
        pid: 4242,
        hostname: 'h',
        credential: { keyId: c.id, proof },
      },
      (m) => m.type === 'registered' || m.type === 'refused',
      30_000,
    );
    assert.equal(reply?.message.type, 'registered', JSON.stringify(reply?.message));
  };
  const a = connect(env0);
  const b = connect(env1);
  await register(env0, a.control);
  await register(env1, b.control);

  const taskReply = (side: typeof a, message: object) =>
    side.tasks.request(message, () => true, 1500).then((r) => r?.message.type ?? null);
  const asEnv0 = speakerSignature(joinOf(env0), undefined, 'env-r0').key;
  const byEnv1 = speakerSignature(joinOf(env1), undefined, 'env-r0').key;
  const forged = speakerKey(
    { secretKey: env1.secretKey, serverPublic: env1.serverPublic },
    'env-r0',
    'env-r0',
  );
  // env-r1's connections name env-r0: with env-r1's key, a forged one, none. No answer to any.
  let sent = 0;
  for (const key of [byEnv1, forged, undefined]) {
    const request = { type: 'task_request', workerId: 'env-r0', requestId: sent, ...(key ? { key } : {}) };
    assert.equal(
      await taskReply(b, request),
      null,
      `a task for env-r0 through env-r1 (${key?.id ?? 'no key'})`,
    );
    sent += 1;
  }
  // …and try to say goodbye for it on control (which would stop it) and heartbeat as it.
  await b.control.request(
    { type: 'bye', workerId: 'env-r0', key: byEnv1, reason: 'not yours' },
    () => false,
    300,
  );
  await b.control.request(
    {
      type: 'heartbeat',
      workerId: 'env-r0',
      key: byEnv1,
      stats: { rejectedFrames: 0, busy: false, counters: {}, labels: {} },
    },
    () => false,
    300,
  );
  sent += 2;
  // Each worker speaking for itself is answered.
  const mine = { type: 'task_request', workerId: 'env-r0', requestId: 100, key: asEnv0 };
  assert.match(String(await taskReply(a, mine)), /^(task_assignment|no_task)$/);
  const own1 = speakerSignature(joinOf(env1), undefined, 'env-r1').key;
  assert.match(
    String(await taskReply(b, { type: 'task_request', workerId: 'env-r1', requestId: 101, key: own1 })),
    /^(task_assignment|no_task)$/,
  );

  // Counted exactly: the spawned replay and learner heartbeat with the run's key all along, and
  // none of theirs is among the dropped.
  await sleep(1500);
  const status = await run.waitFor((s) => s.remote !== undefined, 10_000, 'status');
  assert.equal(status.remote?.wrongKeyMessages, sent, JSON.stringify(status.remote));
  assert.equal(
    status.workers.find((w) => w.id === 'env-r0')?.state,
    'ready',
    'env-r0 was not stopped by the bye',
  );
  for (const w of status.workers.filter((x) => !x.remote))
    assert.ok(
      w.state === 'ready' && w.restarts === 0 && (w.lastHeartbeatMs ?? 1e9) < 2000,
      JSON.stringify(w),
    );
  const log = readFileSync(path.join(run.runDir, 'logs', 'supervisor.jsonl'), 'utf8');
  assert.match(log, /dropped a message on tasks: key env-r1 spoke for env-r0/);
  for (const secret of [env0.secretKey, env1.secretKey]) assert.ok(!log.includes(secret));
});
