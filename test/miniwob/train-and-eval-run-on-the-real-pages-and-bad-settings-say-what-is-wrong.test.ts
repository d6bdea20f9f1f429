// `tti-run eval --suite miniwob` and `tti-run train --suite miniwob` through the real CLI: real
// supervisor, env, inference, replay and learner processes over ZeroMQ, real Chromium on
// MiniWoB++'s real pages. And a missing folder setting or an unknown task name stops the run
// with a message that says which key, which task and where it looked.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readReplayLog } from '../../src/replay/replay-log.js';
import { runCli, SMALL_RUN } from '../helpers/run-fixture.js';
import { REAL_HTML } from './helpers.js';

const sets = (list: readonly string[]) => list.flatMap((s) => ['--set', s]);

test('eval --suite miniwob --tasks --episodes --json prints success and mean reward by task', async (t) => {
  const out = mkdtempSync(path.join(tmpdir(), 'tti-miniwob-eval-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const tasks = ['click-test-2', 'enter-password', 'click-checkboxes-soft'];
  const result = await runCli(
    [
      'eval',
      '--untrained',
      '--suite',
      'miniwob',
      '--miniwob-dir',
      REAL_HTML,
      '--tasks',
      tasks.join(','),
      '--episodes',
      '2',
      '--horizon',
      '2',
      '--json',
      '--out-dir',
      out,
      ...sets(['workers.env=1']),
    ],
    300000,
  );
  assert.equal(result.code, 0, result.stderr.slice(-2000));
  const report = JSON.parse(result.stdout) as {
    episodes: number;
    success: number;
    byTask: Record<string, { episodes: number; success: number; meanReward: number }>;
  };
  assert.equal(report.episodes, 6);
  assert.ok(report.success >= 0 && report.success <= 1);
  assert.deepEqual(Object.keys(report.byTask).sort(), [...tasks].sort());
  for (const task of tasks) {
    assert.equal(report.byTask[task]?.episodes, 2, task);
    assert.equal(typeof report.byTask[task]?.meanReward, 'number');
  }
  // Nothing fills both password fields and submits within 2 steps: no success there.
  assert.equal(report.byTask['enter-password']?.success, 0);
  // The records keep each episode's seed in its task id and the page's utterance as its intent.
  const episodes = path.join(out, 'episodes');
  const summaries = readdirSync(episodes).map(
    (id) =>
      JSON.parse(readFileSync(path.join(episodes, id, 'summary.json'), 'utf8')) as {
        taskId: string;
        intent: string;
      },
  );
  const ids = summaries.map((s) => s.taskId).sort();
  assert.deepEqual(ids, tasks.flatMap((name) => [`${name}@0`, `${name}@1`]).sort());
  const typed = summaries.find((s) => s.taskId === 'enter-password@0');
  assert.match(typed?.intent ?? '', /^Enter the password "\w+" into both text fields and press submit\.$/);
});

test('train --suite miniwob runs an iteration: collects, keeps successes, trains, evals by task', async (t) => {
  const runDir = mkdtempSync(path.join(tmpdir(), 'tti-miniwob-train-'));
  t.after(() => rmSync(runDir, { recursive: true, force: true }));
  const result = await runCli(
    [
      'train',
      '--suite',
      'miniwob',
      '--miniwob-dir',
      REAL_HTML,
      '--tasks',
      'click-test-2,enter-password',
      '--run-dir',
      runDir,
      '--view',
      'log',
      ...sets([
        ...SMALL_RUN,
        'iterations=1',
        // enough episodes that the untrained policy's uniform prior keeps a success (seeded)
        'rollout_size=12',
        'horizon_schedule=[3]',
        'eval_tasks=2',
        'eval_horizon=3',
        'min_updates=5',
        'env.miniwob.eval_episodes=1',
      ]),
    ],
    420000,
  );
  assert.equal(result.code, 0, result.stderr.slice(-3000));
  const row = JSON.parse(readFileSync(path.join(runDir, 'metrics.jsonl'), 'utf8').trim().split('\n')[0]!) as {
    train: { episodes: number; kept: number; success: number };
    replay: { seen: number; kept: number };
    eval: { episodes: number; byTask: Record<string, { episodes: number; meanReward: number }> };
    policyVersion: number;
  };
  assert.equal(row.train.episodes, 12);
  assert.equal(row.replay.seen, 12);
  // Replay keeps exactly the successes (raw reward > 0; a MiniWoB++ episode has no N/A answer).
  assert.equal(row.train.kept, Math.round(row.train.success * 12));
  // The kept trajectories carry the page's rewards and the offer (no stop), for the learner.
  const kept = readReplayLog(path.join(runDir, 'replay'));
  assert.equal(kept.length, row.train.kept);
  assert.ok(kept.length > 0, 'the seeded run keeps a success');
  for (const t of kept) {
    assert.equal(t.reward, 1);
    assert.ok((t.rawReward ?? 0) > 0, `raw reward ${t.rawReward}`);
    assert.ok((t.discountedReward ?? 0) > 0 && (t.discountedReward ?? 0) <= (t.rawReward ?? 0));
    assert.deepEqual(t.offers, { stop: false, navigation: false });
  }
  assert.equal(row.eval.episodes, 2);
  assert.deepEqual(Object.keys(row.eval.byTask).sort(), ['click-test-2', 'enter-password']);
  assert.equal(row.policyVersion, 1);
});

test('a miniwob suite without a folder, or with an unknown task, says what is wrong', async () => {
  const noDir = await runCli(['eval', '--untrained', '--suite', 'miniwob', '--tasks', 'click-button'], 30000);
  assert.notEqual(noDir.code, 0);
  assert.match(noDir.stderr, /env\.miniwob\.dir/);
  assert.match(noDir.stderr, /html\/ folder/);

  const out = mkdtempSync(path.join(tmpdir(), 'tti-miniwob-bad-'));
  try {
    const unknown = await runCli(
      [
        'eval',
        '--untrained',
        '--suite',
        'miniwob',
        '--miniwob-dir',
        REAL_HTML,
        '--tasks',
        'click-test-2,click-nothing',
        '--out-dir',
        out,
      ],
      30000,
    );
    assert.notEqual(unknown.code, 0);
    assert.match(
      unknown.stderr,
      /unknown task "click-nothing": no click-nothing\.html in .*data\/miniwob\/html\/miniwob/,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
