// `tti-run eval` runs a policy greedily over a split with real env and inference processes and
// prints the summary TTI users compare: episodes, success, by tier, by template.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/run-fixture.js';

interface Rate {
  episodes: number;
  successes: number;
  success: number;
}

test('eval --untrained --json prints episodes, success, byTier and byTemplate (--preset quick: one task of each of 3 templates)', async (t) => {
  const out = mkdtempSync(path.join(tmpdir(), 'tti-eval-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const result = await runCli(
    [
      'eval',
      '--untrained',
      '--preset',
      'quick',
      '--limit',
      '3',
      '--horizon',
      '3',
      '--json',
      '--out-dir',
      out,
      '--set',
      'workers.env=1',
      '--set',
      'env.record_episodes=false',
    ],
    180000,
  );
  assert.equal(result.code, 0, result.stderr.slice(-2000));
  const report = JSON.parse(result.stdout) as Rate & {
    byTier: Record<string, Rate>;
    byTemplate: Record<string, Rate>;
    horizon: number;
    policy: string;
  };
  assert.equal(report.episodes, 3);
  assert.equal(report.horizon, 3);
  assert.equal(report.policy, 'untrained');
  assert.ok(report.success >= 0 && report.success <= 1);
  const tierEpisodes = Object.values(report.byTier).reduce((n, r) => n + r.episodes, 0);
  const templateEpisodes = Object.values(report.byTemplate).reduce((n, r) => n + r.episodes, 0);
  assert.equal(tierEpisodes, 3);
  assert.equal(templateEpisodes, 3);
  // The quick preset draws its eval subset per template: three tasks, three templates.
  assert.equal(Object.keys(report.byTemplate).length, 3);
  assert.ok(
    Object.keys(report.byTemplate).every((k) => /^[a-z_]+$/.test(k)),
    'MiniArena template names',
  );
});

test('eval refuses a run directory without checkpoints and names the way out', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-eval-empty-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const result = await runCli(['eval', '--run-dir', dir, '--json']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /no usable checkpoint .* --untrained/);
});
