// The asynchronous loop's eval on a snapshot of the weights (rollout.max_policy_lag: 1), end to end
// on MiniArena, every role a real process: the eval of iteration 2 is pinned to v2, and inference
// keeps serving v2 to its requests while the learner publishes v3 and collection samples under it.
// Every eval episode's recorded steps are of its one named version (the row's policyVersion), and
// a collection episode under a newer version runs while the eval does: neither collection nor the
// learner waited for it. A successful trajectory is put in replay's log first so the learner
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
      'eval_tasks=4',
      'eval_horizon=6',
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
      [2, 2, 4],
      [3, 3, null],
      [4, 4, 4],
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
    assert.equal(evals.length, 4, `iteration ${k}'s eval episodes`);
    for (const e of evals)
      assert.deepEqual(e.policyVersions, [k], `${e.episodeId} acted under ${e.policyVersions.join(', ')}`);
  }
  // Collection moved on while the eval of v2 ran: an episode under v3 or later ran within its window.
  const evalRan = episodes.filter((e) => e.mode === 'eval' && e.iteration === 2).map(window);
  const from = Math.min(...evalRan.map((w) => w.start));
  const until = Math.max(...evalRan.map((w) => w.end));
  const newer = episodes.filter(
    (e) => e.mode === 'collect' && Math.max(...e.policyVersions) > 2 && window(e).start < until,
  );
  assert.ok(
    newer.some((e) => window(e).end > from),
    `no collection episode under v3 or later ran while the eval of v2 did (${from}–${until}): ` +
      episodes
        .filter((e) => e.mode === 'collect')
        .map((e) => `${e.episodeId} v${e.policyVersions.join(',')} ${window(e).start}–${window(e).end}`)
        .join('; '),
  );
});
