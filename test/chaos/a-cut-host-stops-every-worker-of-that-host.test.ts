// `tti-run chaos --cut-host HOST` stops every worker of one machine at once: spawned workers of that
// host by SIGKILL, workers that joined from it by the `hang` fault through the supervisor (they go
// silent, as behind a cut link). A live run with a remote env worker on host `far` loses it by
// heartbeat, finishes its episodes on the local env worker, and chaos's verdict holds.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { planHostCut } from '../../src/chaos/host-cut.js';
import type { ChaosSummary } from '../../src/chaos/index.js';
import type { StatusSnapshot, WorkerSnapshot } from '../../src/protocol/index.js';
import { issueCredential, writeCredential } from '../../src/run/index.js';
import { cliEntry, projectRoot } from '../../src/util/paths.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { freePortBlock } from '../helpers/free-port-block.js';
import { listeningTrainArgs, RunFixture, runCli, SMALL_RUN } from '../helpers/run-fixture.js';

const worker = (id: string, host: string, more: Partial<WorkerSnapshot> = {}): WorkerSnapshot => ({
  role: 'env',
  id,
  state: 'ready',
  restarts: 0,
  lastHeartbeatMs: 10,
  lastError: null,
  rejectedFrames: 0,
  counters: {},
  labels: {},
  host,
  ...more,
});

test('a host cut takes every live worker of that host and no other', () => {
  const status = {
    workers: [
      worker('env-0', 'sup'),
      worker('learner-0', 'sup', { role: 'learner' }),
      worker('env-1', 'sup', { state: 'restarting' }),
      worker('env-r0', 'far', { remote: true }),
      worker('inference-r0', 'far', { role: 'inference', remote: true }),
      worker('env-r1', 'near', { remote: true }),
      worker('env-r2', 'far', { remote: true, state: 'lost' }),
    ],
  } as StatusSnapshot;
  const ids = (ws: WorkerSnapshot[]) => ws.map((w) => w.id);
  const far = planHostCut(status, 'far');
  assert.deepEqual([ids(far.kill), ids(far.hang)], [[], ['env-r0', 'inference-r0']]);
  const sup = planHostCut(status, 'sup');
  assert.deepEqual([ids(sup.kill), ids(sup.hang)], [['env-0', 'learner-0'], []]);
  const none = planHostCut(status, 'nowhere');
  assert.deepEqual([none.kill, none.hang, none.hosts], [[], [], ['far', 'near', 'sup']]);
});

test('chaos cuts a remote host of a live run: its worker is lost, its episodes finish elsewhere', {
  timeout: 240_000,
}, async (t) => {
  const run = RunFixture.create();
  // The remote machine's files live outside the run directory: chaos's orphan check looks there.
  const far = mkdtempSync(path.join(tmpdir(), 'tti-far-'));
  let joined: ChildProcess | null = null;
  t.after(async () => {
    if (joined?.pid !== undefined && joined.exitCode === null) joined.kill('SIGKILL');
    await runCli(['stop', '--run-dir', run.runDir], 30_000);
    await run.cleanup();
    rmSync(far, { recursive: true, force: true });
  });
  const t0 = Date.now();
  const mark = (what: string) => t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
  const tasks = writeAnyAnswerTasks(run.runDir);
  const credentialFile = path.join(far, 'env-r0.json');
  writeCredential(credentialFile, issueCredential(run.runDir, 'env'));
  const port = await freePortBlock();
  // Enough episodes that the run outlasts the cut.
  const sets = [...SMALL_RUN, ...tinyRun(tasks, 1), 'rollout_size=12', 'remote.env=1'];
  const started = await runCli(listeningTrainArgs(run.runDir, `tcp://127.0.0.1:${port}`, sets));
  assert.equal(started.code, 0, started.stderr);
  joined = spawn(
    process.execPath,
    [
      cliEntry,
      'worker',
      '--join',
      `tcp://127.0.0.1:${port}`,
      '--role',
      'env',
      '--credentials',
      credentialFile,
      '--host',
      'far',
    ],
    { cwd: projectRoot, stdio: 'ignore' },
  );
  const farWorker = joined;
  await run.waitFor(
    (s) => s.workers.some((w) => w.id === 'env-r0' && w.state === 'ready'),
    90_000,
    'env-r0 to join from host far',
  );
  mark('env-r0 joined');

  // Chaos attaches to the live run; no random kill in its short window, only the cut.
  const chaos = spawn(
    process.execPath,
    [
      cliEntry,
      'chaos',
      '--run-dir',
      run.runDir,
      '--kill-every',
      '10m',
      '--duration',
      '2s',
      '--cut-host',
      'far',
      '--cut-at',
      '0s',
      '--settle',
      '3m',
    ],
    { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  chaos.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  chaos.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const chaosExit = new Promise<number | null>((resolve) => chaos.on('exit', resolve));
  // The supervisor loses the hung worker by heartbeat; then its machine's manager (here, the test)
  // kills it, as it would a wedged process.
  await run.waitFor((s) => s.workers.find((w) => w.id === 'env-r0')?.state === 'lost', 60_000, 'env-r0 lost');
  mark('env-r0 lost');
  farWorker.kill('SIGKILL');
  const code = await chaosExit;
  mark('chaos done');
  const summary = JSON.parse(out) as ChaosSummary;
  assert.match(err, /chaos: cut host far at \d+ ms: SIGKILL none; hang env-r0/);
  assert.deepEqual(summary.cut && [summary.cut.host, summary.cut.killed, summary.cut.hung], [
    'far',
    [],
    ['env-r0'],
  ]);
  assert.equal(summary.kills.total, 0);
  assert.equal(code, 0, `${err}\n${out}`);
  assert.equal(summary.run.completed, true);
  const log = readFileSync(path.join(run.runDir, 'logs', 'supervisor.jsonl'), 'utf8');
  assert.match(log, /env-r0 \(remote, far\): no heartbeat/);
});
