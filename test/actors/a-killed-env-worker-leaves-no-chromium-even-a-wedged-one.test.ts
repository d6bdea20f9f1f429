// Playwright starts Chromium in a process group of its own, so killing an env worker's group does
// not reach it; a healthy Chromium exits when the worker's pipe closes, a wedged one does not. The
// worker records its browser in RUN_DIR/pids/, and the supervisor kills what a dead worker left:
// here the browser is stopped (SIGSTOP, it can exit on nothing) before its worker is SIGKILLed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StatusSnapshot } from '../../src/protocol/index.js';
import { processesNaming, procStat, recordedBrowsers } from '../../src/run/process-table.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const envWorker = (s: StatusSnapshot) => s.workers.find((w) => w.id === 'env-0')!;
const gone = (pid: number) => {
  const stat = procStat(pid);
  return stat === null || stat.state === 'Z';
};

test('a SIGKILLed env worker leaves no Chromium behind, even one that is wedged', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const first = await run.startDetached(['horizon_schedule=[3]', 'env.record_episodes=false']);
  const deadline = Date.now() + 60_000;
  while (recordedBrowsers(run.runDir, 'env-0').length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const [browser] = recordedBrowsers(run.runDir, 'env-0');
  assert.ok(browser, 'the env worker recorded its Chromium');
  assert.ok(browser.userDataDir, 'with its profile');
  const profile = browser.userDataDir;
  const family = processesNaming([profile]).map((p) => p.pid);
  assert.ok(family.length >= 2, 'Chromium runs as several processes naming its profile');

  // Wedge the whole browser (its group), then kill its worker.
  process.kill(-browser.pid, 'SIGSTOP');
  assert.equal(envWorker(first).state, 'ready');
  const workerPid = run.workerPid('env-0');
  assert.ok(workerPid !== null, 'env-0 runs');
  process.kill(workerPid, 'SIGKILL');

  await run.waitFor(
    (s) => envWorker(s).restarts === 1 && envWorker(s).state === 'ready',
    60_000,
    'env-0 restarted',
  );
  assert.notEqual(run.workerPid('env-0'), workerPid);
  for (const pid of family) assert.ok(gone(pid), `Chromium process ${pid} of the killed worker is gone`);
  assert.deepEqual(processesNaming([profile]), []);
  const next = await (async () => {
    const until = Date.now() + 30_000;
    for (;;) {
      const b = recordedBrowsers(run.runDir, 'env-0')[0];
      if (b || Date.now() > until) return b;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  assert.ok(next && next.pid !== browser.pid, 'the successor records its own Chromium');

  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
  assert.deepEqual(processesNaming([next.userDataDir ?? '/nonexistent']), []);
});
