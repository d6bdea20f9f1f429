// An inference worker that joined from elsewhere (`tti-run worker --join … --role inference`, real
// processes, CURVE over tcp on loopback) is the run's only inference: the local env worker acts
// through the supervisor's act relay. After the first iteration the learner publishes v1 on its
// PUB socket; the remote worker swaps it in and serves with it (its actions go on after v1).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { issueCredential, writeCredential } from '../../src/run/index.js';
import { cliEntry, projectRoot } from '../../src/util/paths.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { freePortBlock } from '../helpers/free-port-block.js';
import { listeningTrainArgs, RunFixture, runCli, SMALL_RUN } from '../helpers/run-fixture.js';

test('a remote inference worker swaps in the weights the learner publishes and serves with them', {
  timeout: 180_000,
}, async (t) => {
  const run = RunFixture.create();
  let joined: ChildProcess | null = null;
  let joinedOutput = '';
  t.after(async () => {
    await runCli(['stop', '--run-dir', run.runDir], 30_000);
    if (joined?.pid !== undefined && joined.exitCode === null) joined.kill('SIGKILL');
    await run.cleanup();
  });
  const t0 = Date.now();
  const mark = (what: string) => t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
  const tasks = writeAnyAnswerTasks(run.runDir);
  const elsewhere = path.join(run.runDir, 'elsewhere');
  mkdirSync(elsewhere, { recursive: true });
  const credentialFile = path.join(elsewhere, 'inference-r0.json');
  writeCredential(credentialFile, issueCredential(run.runDir, 'inference'));
  const port = await freePortBlock();
  const sets = [
    ...SMALL_RUN,
    ...tinyRun(tasks, 2),
    'workers.inference=0',
    'remote.inference=1',
    'log_level=info',
  ];
  const started = await runCli(listeningTrainArgs(run.runDir, `tcp://127.0.0.1:${port}`, sets));
  assert.equal(started.code, 0, started.stderr);
  mark('run started');

  const child = spawn(
    process.execPath,
    [
      cliEntry,
      'worker',
      '--join',
      `tcp://127.0.0.1:${port}`,
      '--role',
      'inference',
      '--credentials',
      credentialFile,
      '--host',
      'far',
      '--run-dir',
      elsewhere,
    ],
    { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  joined = child;
  const keep = (d: Buffer) => {
    joinedOutput += d.toString();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  const remote = (s: Awaited<ReturnType<typeof run.status>>) =>
    s?.workers.find((w) => w.id === 'inference-r0' && w.remote && w.host === 'far');
  const first = await run.waitFor(
    (s) => remote(s)?.state === 'ready' && (remote(s)?.counters.actions ?? 0) > 0,
    60_000,
    'the remote inference worker to serve v0',
  );
  assert.equal(remote(first)?.counters.policyVersion, 0);
  mark('serving v0');
  const swapped = await run.waitFor(
    (s) => (remote(s)?.counters.policyVersion ?? 0) >= 1,
    120_000,
    'the remote inference worker to hold v1',
  );
  const learner = swapped.workers.find((w) => w.role === 'learner');
  assert.ok((learner?.counters.policyVersion ?? 0) >= 1, JSON.stringify(learner?.counters));
  const actionsAtSwap = remote(swapped)?.counters.actions ?? 0;
  mark(`v1 swapped in after ${actionsAtSwap} actions`);
  // Iteration 2's episodes act through it, with v1.
  const served = await run.waitFor(
    (s) =>
      (remote(s)?.counters.actions ?? 0) > actionsAtSwap && (remote(s)?.counters.policyVersion ?? 0) >= 1,
    60_000,
    'the remote inference worker to act with v1',
  );
  mark('served with v1');
  // Every worker here, spawned (the run's key) or joined (its credential), speaks for itself only.
  assert.equal(served.remote?.wrongKeyMessages, 0, JSON.stringify(served.remote));
  const log = readFileSync(path.join(elsewhere, 'logs', 'inference-r0.jsonl'), 'utf8');
  assert.match(log, /weights v1 swapped in/, joinedOutput);
});
