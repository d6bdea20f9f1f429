// A training step holds the learner's event loop for as long as tfjs computes it: seconds on a
// loaded machine, past the heartbeat timeout. The learner declares the computation in a heartbeat
// sent at once (`graceMs`), and the supervisor waits `supervisor.compute_grace_ms` before it takes
// it for hung: before that, a learner killed mid-training crash-looped a run at load 7 on 2 cores.
// The `slow` fault makes its next training step hold the loop for twice the heartbeat timeout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { RunFixture } from '../helpers/run-fixture.js';

async function slowTraining(graceMs: number): Promise<{ restarts: number; policyVersion: number }> {
  const run = RunFixture.create();
  try {
    const tasks = writeAnyAnswerTasks(run.runDir);
    await run.startDetached([...tinyRun(tasks, 1), `supervisor.compute_grace_ms=${graceMs}`]);
    await run.injectNow('learner-0', 'slow');
    const done = await run.waitFor(
      (s) => s.policyVersion >= 1 || s.workers.some((w) => w.id === 'learner-0' && w.restarts > 0),
      180_000,
      'the learner published v1, or restarted',
    );
    const learner = done.workers.find((w) => w.id === 'learner-0')!;
    return { restarts: learner.restarts, policyVersion: done.policyVersion };
  } finally {
    await run.cleanup();
  }
}

test('a learner in a training step longer than the heartbeat timeout trains on, within its grace', async () => {
  const { restarts, policyVersion } = await slowTraining(60_000);
  assert.equal(restarts, 0, 'never taken for hung');
  assert.equal(policyVersion, 1, 'it trained and published v1');
});

test('with a grace shorter than the step, the same learner is taken for hung and restarted', async () => {
  const { restarts } = await slowTraining(1000);
  assert.ok(restarts >= 1, `restarts ${restarts}`);
});
