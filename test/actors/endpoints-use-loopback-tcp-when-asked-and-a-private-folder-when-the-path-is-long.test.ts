import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { SupervisorInfo } from '../../src/run/run-dir.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const endpointsOf = (runDir: string) =>
  (JSON.parse(readFileSync(path.join(runDir, 'supervisor.json'), 'utf8')) as SupervisorInfo).endpoints;

test('transport.kind=tcp puts every socket on 127.0.0.1 and the run works', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const status = await run.startDetached(['transport.kind=tcp']);
  const endpoints = endpointsOf(run.runDir);
  for (const endpoint of [
    endpoints.control,
    endpoints.status,
    endpoints.tasks,
    ...Object.values(endpoints.act),
  ]) {
    assert.match(endpoint, /^tcp:\/\/127\.0\.0\.1:\d+$/);
  }
  assert.ok(status.workers.every((w) => w.state === 'ready'));
  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);
});

test('a run directory too deep for a Unix socket path gets a short private socket folder, not tcp', async (t) => {
  const base = RunFixture.create();
  t.after(() => base.cleanup());
  const deep = path.join(base.runDir, 'a-rather-long-folder-name-to-push-the-path'.repeat(2), 'run');
  mkdirSync(deep, { recursive: true });
  const args = [
    'train',
    '--config',
    'configs/miniarena.yaml',
    '--run-dir',
    deep,
    '--detach',
    '--set',
    'workers.env=1',
  ];
  const started = await runCli(args);
  assert.equal(started.code, 0, started.stderr);
  const control = endpointsOf(deep).control;
  assert.match(control, /^ipc:\/\//, 'no silent fallback to plaintext tcp');
  const folder = path.dirname(control.slice('ipc://'.length));
  assert.ok(!folder.startsWith(deep));
  assert.equal(statSync(folder).mode & 0o777, 0o700);
  assert.equal((await runCli(['stop', '--run-dir', deep])).code, 0);
  assert.deepEqual(await base.waitNoProcesses(30_000), []);
  assert.equal(existsSync(folder), false, 'the folder goes with the supervisor');
});
