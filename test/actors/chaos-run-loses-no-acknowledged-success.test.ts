// `tti-run chaos` on MiniArena, short: a random worker is SIGKILLed every 3 s and the supervisor
// once (kill -9, then `train --resume`); the run still completes its iterations, every success
// replay held durable is still in replay, metrics.jsonl has each iteration once, and no process of
// the run (workers, Chromium) is left. Once with TTI's synchronous loop and once collecting while
// training, two versions ahead of the learner at most (rollout.max_policy_lag: 2).
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { ChaosSummary } from '../../src/chaos/chaos-run.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { RunFixture, runCli, SMALL_RUN } from '../helpers/run-fixture.js';

const ITERATIONS = 3;
const EPISODES = 16;

const chaosRun = (lag: number) => async (t: TestContext) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const tasks = writeAnyAnswerTasks(run.runDir);
  // Sized to outlast the chaos window: episodes here take a fraction of a second, and a run that
  // ends before the supervisor kill tests nothing (3 × 16 episodes ≈ 20 s undisturbed, and the
  // kill comes 7 s in). Worker kills come before it and after the resume.
  const sets = [
    ...SMALL_RUN,
    ...tinyRun(tasks, ITERATIONS),
    `rollout_size=${EPISODES}`,
    `rollout.max_policy_lag=${lag}`,
  ].flatMap((s) => ['--set', s]);
  const result = await runCli(
    [
      'chaos',
      '--run-dir',
      run.runDir,
      '--kill-every',
      '3s',
      '--duration',
      '16s',
      '--kill-supervisor',
      '--supervisor-at',
      '7s',
      '--settle',
      '4m',
      '--config',
      'configs/miniarena.yaml',
      ...sets,
    ],
    360_000,
  );
  assert.ok(result.stdout.trim().startsWith('{'), `no summary:\n${result.stderr}`);
  const summary = JSON.parse(result.stdout) as ChaosSummary;
  const why = `${result.stderr}\n${result.stdout}`;
  assert.equal(result.code, 0, why);
  assert.equal(summary.ok, true, why);

  assert.ok(summary.kills.total >= 2, `workers were killed: ${why}`);
  assert.deepEqual(summary.supervisor, { kills: 1, resumes: 1, downMs: summary.supervisor.downMs });
  assert.ok(summary.restarts >= 1, 'the supervisors restarted what was killed');
  assert.equal(summary.run.completed, true);
  assert.equal(summary.iterations.completed, ITERATIONS);
  assert.deepEqual(summary.iterations.metrics.missing, []);
  assert.deepEqual(summary.iterations.metrics.duplicates, []);
  assert.equal(summary.iterations.metrics.rows, ITERATIONS);
  assert.ok(summary.replay.acknowledged >= 1, 'successes reached replay');
  assert.deepEqual(summary.replay.lost, []);
  assert.equal(summary.replay.foundAfter, summary.replay.acknowledged);
  assert.deepEqual(summary.orphans, []);
  // The summary's own scan agrees with the test's.
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
};

test(
  'a chaos run with worker kills and one supervisor kill completes and loses no acknowledged success',
  chaosRun(0),
);

test(
  'a chaos run collecting two versions ahead of the learner (max_policy_lag 2) loses no acknowledged success either',
  chaosRun(2),
);
