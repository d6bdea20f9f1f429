// One real run (supervisor + 5 worker processes over ZeroMQ), exercised through the real CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Channel,
  Inbound,
  RejectedFrames,
  Requester,
  type StatusSnapshot,
} from '../../src/protocol/index.js';
import type { SupervisorInfo } from '../../src/run/run-dir.js';
import { cliEntry } from '../../src/util/paths.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const run = RunFixture.create();
let first: StatusSnapshot;

before(async () => {
  first = await run.startDetached(['workers.fault=1']);
});
after(() => run.cleanup());

const worker = (s: StatusSnapshot, id: string) => {
  const w = s.workers.find((x) => x.id === id);
  assert.ok(w, `worker ${id} in status`);
  return w;
};

test('every role registers and heartbeats', async () => {
  assert.deepEqual(first.workers.map((w) => w.role).sort(), [
    'env',
    'fault',
    'inference',
    'learner',
    'replay',
  ]);
  for (const w of first.workers) {
    assert.equal(w.state, 'ready', `${w.id} ready`);
    assert.equal(w.restarts, 0);
    assert.ok(run.workerPid(w.id) !== null, `${w.id} runs`);
  }
  // Heartbeats keep arriving: every worker's last one is recent, a second later too.
  await new Promise((r) => setTimeout(r, 1000));
  const later = await run.waitFor(
    (s) => s.workers.every((w) => (w.lastHeartbeatMs ?? 1e9) < 1000),
    60_000,
    'fresh heartbeats',
  );
  assert.ok(later.uptimeMs > first.uptimeMs);
  assert.equal(later.startedAt, first.startedAt);
});

test('status --json has the documented fields', async () => {
  const result = await runCli(['status', '--run-dir', run.runDir, '--json']);
  assert.equal(result.code, 0);
  const s = JSON.parse(result.stdout) as Record<string, unknown>;
  for (const key of ['state', 'iteration', 'policyVersion', 'workers']) assert.ok(key in s, key);
  const w = (s.workers as Record<string, unknown>[])[0] ?? {};
  for (const key of ['role', 'id', 'state', 'restarts', 'lastHeartbeatMs']) assert.ok(key in w, key);
  // No pid anywhere: a pid admits nothing, and a map of them helps only whoever would pose as a worker.
  assert.doesNotMatch(result.stdout, /"pid"/);
});

test('attach shows the live view and detaching on Ctrl-C leaves the run undisturbed', async () => {
  const before = await run.waitFor(() => true, 5000, 'status');
  const pidsBefore = before.workers.map((w) => [w.id, run.workerPid(w.id)]);
  const child = spawn(process.execPath, [cliEntry, 'attach', '--run-dir', run.runDir, '--interval', '200']);
  let screen = '';
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
  });
  // Detach once the view is on screen (attach has installed its Ctrl-C handler by then).
  const deadline = Date.now() + 60000;
  while (!/RUNNING/.test(screen) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0);
  assert.match(screen, /RUNNING/);
  assert.match(screen, /inference-0/);
  assert.doesNotMatch(screen, /\bpid\b/);
  const after = await run.waitFor(() => true, 5000, 'status');
  assert.equal(after.state, 'running');
  assert.deepEqual(
    after.workers.map((w) => [w.id, w.restarts]),
    before.workers.map((w) => [w.id, w.restarts]),
  );
  assert.deepEqual(
    after.workers.map((w) => [w.id, run.workerPid(w.id)]),
    pidsBefore,
  );
});

test('every process writes JSON lines to its own log file', () => {
  const logs = readdirSync(path.join(run.runDir, 'logs')).filter((f) => f.endsWith('.jsonl'));
  for (const name of ['supervisor', 'env-0', 'inference-0', 'replay-0', 'learner-0', 'fault-0']) {
    assert.ok(logs.includes(`${name}.jsonl`), `${name}.jsonl in ${logs.join(', ')}`);
  }
  const lines = readFileSync(path.join(run.runDir, 'logs', 'supervisor.jsonl'), 'utf8')
    .trim()
    .split('\n');
  const first = JSON.parse(lines[0]!) as { level: string; message: string; timestamp: string; name: string };
  assert.equal(first.name, 'supervisor');
  assert.ok(first.level && first.message && first.timestamp);
});

// How fast a restart is belongs to a bench; here only that it happens (the wait is generous, for a
// loaded CI machine).
test('a worker killed with SIGKILL is restarted and registers again', async () => {
  const before = worker(await run.waitFor(() => true, 5000, 'status'), 'env-0');
  const pid = run.workerPid('env-0');
  assert.ok(pid !== null);
  process.kill(pid, 'SIGKILL');
  const after = await run.waitFor(
    (s) => {
      const w = worker(s, 'env-0');
      return w.state === 'ready' && w.restarts === before.restarts + 1;
    },
    60_000,
    'env-0 restarted',
  );
  assert.equal(worker(after, 'env-0').state, 'ready');
  assert.notEqual(run.workerPid('env-0'), pid);
  assert.equal(worker(after, 'env-0').restarts, 1);
});

test('a hung worker misses heartbeats, is killed and restarted', async () => {
  const before = worker(await run.waitFor(() => true, 5000, 'status'), 'fault-0');
  const pid = run.workerPid('fault-0');
  await run.inject('fault-0', 'hang');
  const after = await run.waitFor(
    (s) => worker(s, 'fault-0').restarts === before.restarts + 1 && worker(s, 'fault-0').state === 'ready',
    60_000,
    'fault-0 restarted after hanging',
  );
  assert.match(worker(after, 'fault-0').lastError ?? '', /no heartbeat/);
  assert.notEqual(run.workerPid('fault-0'), pid);
});

test('a process posing as a running worker is refused and exits; the real one is untouched', async () => {
  const info = JSON.parse(readFileSync(path.join(run.runDir, 'supervisor.json'), 'utf8')) as SupervisorInfo;
  // The fault worker: it runs no browser, so its heartbeats keep time on a loaded machine and any
  // restart here would be the impostors' doing.
  const before = worker(await run.waitFor(() => true, 5000, 'status'), 'fault-0');
  const realPid = run.workerPid('fault-0');
  assert.ok(realPid !== null);
  // Both at once: each is refused on its own, and neither waits for the other's start-up.
  const register = (role: string, id: string) =>
    runCli(
      [
        'worker',
        '--role',
        role,
        '--id',
        id,
        '--control',
        info.endpoints.control,
        '--register-timeout',
        '5000',
      ],
      60_000,
    );
  const [impostor, unknown] = await Promise.all([register('fault', 'fault-0'), register('env', 'env-9')]);
  assert.equal(impostor.code, 1);
  assert.equal(unknown.code, 1);
  // One that names the real worker's pid (anyone can read it from /proc), with no spawn nonce or a
  // guessed one: refused all the same, since the pid admits nothing.
  const poser = Channel.create(
    'control',
    'dealer',
    Inbound.controlToWorker,
    new RejectedFrames(() => undefined),
  );
  poser.connect(info.endpoints.control);
  const requester = new Requester(poser);
  try {
    for (const spawnNonce of [undefined, 'f'.repeat(64)]) {
      const answer = await requester.request(
        {
          type: 'register',
          role: 'fault',
          workerId: 'fault-0',
          pid: realPid,
          hostname: os.hostname(),
          ...(spawnNonce === undefined ? {} : { spawn: spawnNonce }),
        },
        () => true,
        10_000,
      );
      assert.equal(
        answer?.message.type,
        'refused',
        `register as fault-0 with its pid answered ${JSON.stringify(answer?.message)}`,
      );
      const reason = answer?.message.type === 'refused' ? answer.message.reason : '';
      assert.match(reason, /fault-0: not the process this supervisor spawned/);
    }
  } finally {
    requester.close();
  }
  // The supervisor's log file is written behind its replies: wait for both lines (a loaded machine).
  const refusals = [
    new RegExp(`fault-0: register without this spawn's nonce \\(none, from pid ${realPid}\\); refused`),
    new RegExp(
      `fault-0: register without this spawn's nonce \\(a wrong one, from pid ${realPid}\\); refused`,
    ),
  ];
  const logFile = path.join(run.runDir, 'logs', 'supervisor.jsonl');
  let log = '';
  for (let i = 0; i < 100; i++) {
    log = readFileSync(logFile, 'utf8');
    if (refusals.every((r) => r.test(log))) break;
    await sleep(100);
  }
  for (const refusal of refusals) assert.match(log, refusal);
  const after = worker(await run.waitFor(() => true, 5000, 'status'), 'fault-0');
  assert.equal(after.state, 'ready');
  assert.equal(run.workerPid('fault-0'), realPid);
  assert.equal(after.restarts, before.restarts);
});

test('stop without the run token is refused and the run goes on', async () => {
  const wrong = path.join(run.runDir, 'not-the-token');
  writeFileSync(wrong, 'deadbeef\n');
  const refused = await runCli(['stop', '--run-dir', run.runDir, '--token-file', wrong]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /refused/);
  assert.match(refused.stderr, /token/);
  const missing = await runCli([
    'stop',
    '--run-dir',
    run.runDir,
    '--token-file',
    path.join(run.runDir, 'nope'),
  ]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read the run token/);
  const still = await run.status();
  assert.equal(still?.state, 'running');
});

test('tti-run stop ends the run with exit 0 and leaves no process behind', async () => {
  const result = await runCli(['stop', '--run-dir', run.runDir]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /stopped/);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
  const status = await runCli(['status', '--run-dir', run.runDir, '--json']);
  assert.equal(status.code, 1);
  assert.equal((JSON.parse(status.stdout) as { last: { state: string } }).last.state, 'stopped');
});
