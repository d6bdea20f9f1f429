// Whole-run lifecycles in the foreground, as a user's terminal runs them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

test('SIGINT stops a foreground run: exit 0, state stopped, no process left', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  await run.startForeground();
  run.foreground?.kill('SIGINT');
  assert.equal(await run.foregroundExit(60000), 0, run.foregroundOutput);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
  const state = JSON.parse(readFileSync(path.join(run.runDir, 'state.json'), 'utf8')) as { state: string };
  assert.equal(state.state, 'stopped');
});

test('a worker crashing in a loop stops the run after max_restarts, naming the role and its error', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  await run.startForeground(
    [
      'workers.fault=1',
      'fault.crash_after_ms=100',
      'fault.crash_message=boom-in-a-loop',
      'supervisor.max_restarts=2',
    ],
    false,
  );
  const code = await run.foregroundExit(90000);
  assert.equal(code, 3, run.foregroundOutput);
  assert.match(run.foregroundOutput, /run failed: fault worker fault-0 .* restarted more than 2 times/);
  assert.match(run.foregroundOutput, /last error: .*boom-in-a-loop/);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
});

test('workers exit by themselves when the supervisor is killed with SIGKILL', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const status = await run.startDetached();
  const workerPids = status.workers.map((w) => run.workerPid(w.id));
  assert.equal(workerPids.filter((pid) => pid !== null).length, 4);
  process.kill(run.supervisorPid(), 'SIGKILL');
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
});

test('a used run directory needs --resume, which starts from its state and keeps its token', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  await run.startDetached();
  const token = readFileSync(path.join(run.runDir, 'token'), 'utf8');
  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);

  const again = await runCli([
    'train',
    '--config',
    'configs/miniarena.yaml',
    '--run-dir',
    run.runDir,
    '--detach',
  ]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already holds a run: pass --resume/);

  const resumed = await runCli(['train', '--resume', '--run-dir', run.runDir, '--detach']);
  assert.equal(resumed.code, 0, resumed.stderr);
  await run.waitFor((s) => s.state === 'running', 60_000, 'resumed run running');
  assert.equal(readFileSync(path.join(run.runDir, 'token'), 'utf8'), token);
  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
});
