// A worker registers before its role is up (an env worker then launches Chromium and its web
// host). A role fault (`slow`, `host-down`) that arrives in between must wait for the role, as
// early commands do: it was dropped, and a test that injected `host-down` right after a run came
// up failed whenever the env role started late. A fault worker that starts its role 30 s after
// registering (long enough that the fault is in before it on a loaded machine; the test checks
// that it was) stands
// in for the slow env worker.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

interface LogLine {
  message: string;
  timestamp: string;
}

test('a role fault sent before the role is up reaches it once it starts', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  // No env worker: the fault worker is the one under test, and a collecting env worker would only
  // take the machine's time while the test waits for the fault role.
  await run.startDetached(['workers.fault=1', 'fault.start_delay_ms=15000', 'workers.env=0']);
  // In-process: a CLI start on a loaded machine outlasted the role's delay (the check below then
  // fails whether or not the fault waits); `tti-run inject` itself is what the other tests use.
  await run.injectNow('fault-0', 'slow');

  const after = await run.waitFor(
    (s) => (s.workers.find((w) => w.id === 'fault-0')?.counters.slow ?? 0) > 0,
    90_000,
    'the fault role counted the slow fault',
  );
  assert.equal(after.workers.find((w) => w.id === 'fault-0')?.counters.slow, 1, 'delivered once');

  // The fault did arrive before the role was up (else this test would prove nothing).
  const lines = readFileSync(path.join(run.runDir, 'logs', 'fault-0.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LogLine);
  const at = (what: string) => lines.find((l) => l.message.includes(what))?.timestamp;
  const arrived = at('fault injected: slow');
  const started = at('fault role started');
  assert.ok(arrived && started, 'both in the log');
  assert.ok(arrived < started, `the fault came at ${arrived}, the role started at ${started}`);
  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);
});
