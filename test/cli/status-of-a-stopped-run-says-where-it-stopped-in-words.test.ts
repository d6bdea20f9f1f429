// `tti-run status` on a run with no supervisor says in words where the run stopped and its last
// results; `--json` still prints the whole state it left behind.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/run-fixture.js';

test('status of a stopped run says where it stopped in words, and --json keeps the raw state', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-stopped-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const state = {
    iteration: 3,
    policyVersion: 3,
    horizon: 10,
    state: 'stopped',
    reason: 'SIGINT received',
    rngState: 7,
  };
  writeFileSync(path.join(dir, 'state.json'), JSON.stringify(state));
  const row = { iteration: 3, train: { episodes: 32, success: 0.25 }, eval: { episodes: 20, success: 0.4 } };
  writeFileSync(path.join(dir, 'metrics.jsonl'), `${JSON.stringify(row)}\n`);

  const shown = await runCli(['status', '--run-dir', dir]);
  assert.equal(shown.code, 1, 'no supervisor is running');
  assert.match(
    shown.stdout,
    /the run was last stopped \(SIGINT received\) at iteration 3, policy v3, horizon 10/,
  );
  assert.match(
    shown.stdout,
    /collection success 25% of 32 episodes \(iteration 3\), last eval 40% of 20 episodes/,
  );
  assert.ok(!/[a-z][A-Z]/.test(shown.stdout.replace(dir, '')), shown.stdout);

  const json = await runCli(['status', '--run-dir', dir, '--json']);
  assert.deepEqual((JSON.parse(json.stdout) as { last: object }).last, state);
});
