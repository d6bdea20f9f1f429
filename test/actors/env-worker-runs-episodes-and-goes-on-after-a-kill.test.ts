// An env worker in a real run: it drives Chromium on its own MiniArena instance, runs episodes
// with the inference worker's actions, records and scores them, pushes the trajectories to replay;
// killed with SIGKILL, it leaves no Chromium behind and its successor goes on.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { StatusSnapshot } from '../../src/protocol/index.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const worker = (s: StatusSnapshot, id: string) => s.workers.find((w) => w.id === id)!;

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z');

test('the env worker runs scored episodes into replay and goes on after a SIGKILL', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  await run.startDetached(['horizon_schedule=[2]']);
  const busy = await run.waitFor(
    (s) => (worker(s, 'env-0').counters.episodes ?? 0) >= 2,
    90000,
    'two episodes',
  );
  assert.ok((worker(busy, 'replay-0').counters.received ?? 0) >= 1, 'trajectories reached replay');

  const episodes = readdirSync(path.join(run.runDir, 'episodes'));
  assert.ok(episodes.length >= 2);
  const record = JSON.parse(
    readFileSync(path.join(run.runDir, 'episodes', episodes[0]!, 'record.json'), 'utf8'),
  ) as { steps: unknown[]; verdict: { status: string; why: string }; endReason: string };
  assert.ok(record.steps.length >= 1 && record.steps.length <= 2, 'the horizon bounds the episode');
  assert.equal(record.verdict.status, 'scored');
  assert.ok(record.verdict.why.length > 0);

  assert.equal(worker(busy, 'env-0').state, 'ready');
  const envPid = run.workerPid('env-0');
  assert.ok(envPid !== null, 'env-0 runs');
  const browsers = childrenOf(envPid);
  assert.ok(browsers.length >= 1, 'the env worker runs a Chromium');
  process.kill(envPid, 'SIGKILL');
  // Status names no pids: the successor's is read from /proc once it has registered (the run may
  // have finished, and its workers gone, by the time the episode shows).
  let successor: number | null = null;
  await run.waitFor(
    (s) => {
      if (worker(s, 'env-0').restarts !== 1) return false;
      const now = run.workerPid('env-0');
      if (now !== envPid) successor ??= now;
      return successor !== null && (worker(s, 'env-0').counters.episodes ?? 0) >= 1;
    },
    90000,
    'the restarted env worker runs an episode',
  );
  assert.ok(successor !== null && successor !== envPid, `env-0 restarted as ${successor}`);
  for (const pid of browsers) assert.equal(alive(pid), false, `Chromium ${pid} of the killed worker is gone`);

  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
  for (const pid of childrenOf(successor)) assert.equal(alive(pid), false);
});
