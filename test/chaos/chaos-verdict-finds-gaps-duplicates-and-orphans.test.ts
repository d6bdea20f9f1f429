// The chaos summary's checks, on run directories made by hand: metrics rows missing or twice,
// a leftover process naming the run, and durations as the command line takes them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseDuration } from '../../src/chaos/duration.js';
import { checkMetrics, findOrphans } from '../../src/chaos/verdict.js';
import { RunDir } from '../../src/run/run-dir.js';

const row = (iteration: number) => JSON.stringify({ iteration, policyVersion: iteration });

test('metrics: a missing iteration, one written twice and a torn line are all named', () => {
  const runDir = new RunDir(mkdtempSync(path.join(tmpdir(), 'tti-verdict-')));
  writeFileSync(
    path.join(runDir.root, 'metrics.jsonl'),
    `${[row(1), row(3), row(3), '{"iter'].join('\n')}\n`,
  );
  assert.deepEqual(checkMetrics(runDir), {
    rows: 4,
    missing: [2],
    duplicates: [3],
    unreadable: 1,
    policyVersions: [1, 3, 3],
  });
  writeFileSync(path.join(runDir.root, 'metrics.jsonl'), `${[row(1), row(2)].join('\n')}\n`);
  const whole = checkMetrics(runDir);
  assert.deepEqual([whole.missing, whole.duplicates, whole.unreadable], [[], [], 0]);
});

test('orphans: a process naming the run directory is found, and is not once it is gone', async () => {
  const runDir = new RunDir(mkdtempSync(path.join(tmpdir(), 'tti-verdict-')));
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', `${runDir.root}/sock/x`], {
    stdio: 'ignore',
  });
  try {
    const found = await findOrphans(runDir, [], 300);
    assert.deepEqual(
      found.map((o) => o.pid),
      [sleeper.pid],
    );
  } finally {
    sleeper.kill('SIGKILL');
  }
  await new Promise((resolve) => sleeper.on('exit', resolve));
  assert.deepEqual(await findOrphans(runDir, [], 2000), []);
});

test('durations read as the command line writes them', () => {
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('5s'), 5000);
  assert.equal(parseDuration('2m'), 120_000);
  assert.equal(parseDuration('90'), 90_000);
  assert.throws(() => parseDuration('soon'), /not a duration/);
});
