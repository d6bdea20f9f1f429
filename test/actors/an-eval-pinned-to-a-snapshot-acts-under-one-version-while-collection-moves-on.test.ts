// The asynchronous loop's eval on a snapshot of the weights (rollout.max_policy_lag: 1), end to end
// on MiniArena, every role a real process: the eval of iteration 2 is pinned to v2, and inference
// keeps serving v2 to its requests while the learner publishes v3 and collection goes on. Every
// eval episode's recorded steps are of its one named version (the row's policyVersion), a
// collection episode runs while the eval does, and v3 is saved before it ends: neither collection
// nor the learner waited for it. A successful trajectory is put in replay's log first so the learner
// publishes a new version each iteration (the lag bound keeps it); the eval is long (more tasks, a longer horizon) and
// collection short, so they overlap.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { EpisodeSummary } from '../../src/envs/without-browser.js';
import type { MetricsRow } from '../../src/loop/index.js';
import { ReplayLog } from '../../src/replay/index.js';
import { seededSuccess } from '../helpers/kept-trajectory.js';
import { RunFixture } from '../helpers/run-fixture.js';

test('an eval pinned to a snapshot acts under one version while collection moves on to newer ones', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const { log } = ReplayLog.open(path.join(run.runDir, 'replay'), 1000);
  // marked as sampled under a version newer than the run reaches, so the lag bound never leaves it out
  const seeded = seededSuccess();
  log.append({ ...seeded, steps: seeded.steps.map((step) => ({ ...step, policyVersion: 1000 })) });
  log.close();

  await run.startForeground(
    [
      'iterations=4',
      'rollout_size=2',
      'horizon_schedule=[2]',
      'eval_every=2',
      'eval_tasks=6',
      'eval_horizon=12',
      // a few updates a pass: the learner trains v3 within the eval's window even on a loaded machine
      'min_updates=5',
      'workers.env=2',
      'rollout.max_policy_lag=1',
    ],
    false,
  );
  const code = await run.foregroundExit(580_000);
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);

  const rows = readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as MetricsRow);
  assert.deepEqual(
    rows.map((r) => [r.iteration, r.policyVersion, r.eval?.episodes ?? null]),
    [
      [1, 1, null],
      [2, 2, 6],
      [3, 3, null],
      [4, 4, 6],
    ],
  );

  const dir = path.join(run.runDir, 'episodes');
  const episodes = readdirSync(dir)
    .filter((id) => existsSync(path.join(dir, id, 'summary.json')))
    .map((id) => JSON.parse(readFileSync(path.join(dir, id, 'summary.json'), 'utf8')) as EpisodeSummary);
  const window = (e: EpisodeSummary) => {
    const start = Date.parse(e.startedAt);
    return { start, end: start + e.durationMs };
  };
  for (const k of [2, 4]) {
    const evals = episodes.filter((e) => e.mode === 'eval' && e.iteration === k);
    assert.equal(evals.length, 6, `iteration ${k}'s eval episodes`);
    for (const e of evals)
      assert.deepEqual(e.policyVersions, [k], `${e.episodeId} acted under ${e.policyVersions.join(', ')}`);
  }
  // Neither waited for the eval of v2: a collection episode ran within its window, and the learner
  // trained and saved v3 before it ended.
  const evalRan = episodes.filter((e) => e.mode === 'eval' && e.iteration === 2).map(window);
  const from = Math.min(...evalRan.map((w) => w.start));
  const until = Math.max(...evalRan.map((w) => w.end));
  const collected = episodes
    .filter((e) => e.mode === 'collect')
    .map((e) => `${e.episodeId} v${e.policyVersions.join(',')} ${window(e).start}–${window(e).end}`)
    .join('; ');
  assert.ok(
    episodes.some((e) => e.mode === 'collect' && window(e).start < until && window(e).end > from),
    `no collection episode ran while the eval of v2 did (${from}–${until}): ${collected}`,
  );
  const v3 = JSON.parse(
    readFileSync(path.join(run.runDir, 'checkpoints', 'v00000003', 'manifest.json'), 'utf8'),
  ) as { createdAt: string };
  assert.ok(
    Date.parse(v3.createdAt) < until,
    `v3 was saved at ${v3.createdAt}, after the eval of v2 ended (${new Date(until).toISOString()})`,
  );
});
