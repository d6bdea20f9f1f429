// One TTI iteration end to end, with every role a real process: the env worker collects episodes
// from MiniArena, replay keeps successes, the learner trains on them (filtered BC), writes a
// checkpoint and publishes weights, inference swaps them in, the eval runs, and metrics.jsonl gets
// its row. A successful trajectory is put in replay's log before the start, so that the learner
// has something to learn from whatever the untrained policy manages in a few episodes.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { StatusSnapshot } from '../../src/protocol/index.js';
import { ReplayLog } from '../../src/replay/replay-log.js';
import { seededSuccess } from '../helpers/kept-trajectory.js';
import { RunFixture } from '../helpers/run-fixture.js';

test('an iteration collects, trains on kept trajectories, publishes weights that inference swaps in, and evals', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const { log } = ReplayLog.open(path.join(run.runDir, 'replay'), 1000);
  log.append(seededSuccess());
  log.close();

  await run.startForeground(
    [
      'iterations=1',
      'rollout_size=3',
      'horizon_schedule=[4]',
      'eval_tasks=2',
      'eval_horizon=4',
      'env.record_episodes=false',
      // a few updates show that it trains; the preset's 50 are for learning
      'min_updates=5',
    ],
    false,
  );
  const code = await run.foregroundExit(240000);
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);

  const rows = readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(rows.length, 1);
  const row = rows[0] as {
    iteration: number;
    policyVersion: number;
    train: { episodes: number };
    eval: { episodes: number; byTier: object; byTemplate: object } | null;
    learner: { trajectories: number; samples: number; loss: number | null } | null;
    replay: { seen: number };
  };
  assert.equal(row.iteration, 1);
  assert.equal(row.train.episodes, 3);
  assert.equal(row.replay.seen, 3);
  assert.ok(row.learner !== null && row.learner.trajectories >= 1, 'the learner sampled the kept trajectory');
  assert.ok(row.learner.samples >= 1 && row.learner.loss !== null, 'and trained on its steps');
  assert.equal(row.policyVersion, 1, 'weights v1 were published');
  assert.equal(row.eval?.episodes, 2);
  assert.ok(
    row.eval && Object.keys(row.eval.byTier).length > 0 && Object.keys(row.eval.byTemplate).length > 0,
  );

  // The checkpoint is on disk, and the eval episodes were acted on by the swapped-in v1.
  assert.ok(existsSync(path.join(run.runDir, 'checkpoints', 'v00000001', 'manifest.json')));
  const state = JSON.parse(readFileSync(path.join(run.runDir, 'state.json'), 'utf8')) as StatusSnapshot & {
    totals: { seen: number };
  };
  assert.equal(state.iteration, 1);
  assert.equal(state.policyVersion, 1);
  const inferenceLog = readdirSync(path.join(run.runDir, 'logs')).find((f) => f.startsWith('inference-0'));
  assert.ok(inferenceLog);
  const lines = readFileSync(path.join(run.runDir, 'logs', inferenceLog), 'utf8');
  assert.match(lines, /weights v1 swapped in/);
  // the env workers featurized their pages (model.featurize: env), and inference used what they sent
  assert.match(lines, /acting on the env workers' features/);
  assert.doesNotMatch(lines, /features were not used/);
  assert.match(lines, /tfjs backend|backend/i);
  // An idle inference worker swaps as the weights arrive: the supervisor, which waits for that
  // version before the eval, never ran into its timeout.
  const supervisorLog = readFileSync(path.join(run.runDir, 'logs', 'supervisor.jsonl'), 'utf8');
  assert.doesNotMatch(supervisorLog, /did not report weights/);
});
