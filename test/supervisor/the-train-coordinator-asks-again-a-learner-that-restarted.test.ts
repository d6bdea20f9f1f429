// The train coordinator (src/actors/supervisor/train-coordinator.ts) with a real actor in the
// learner's worker actor's place: no tti-run process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start, stop } from 'nact';
import { TrainCoordinator } from '../../src/actors/supervisor/train-coordinator.js';
import type { WorkerMsg } from '../../src/actors/supervisor/worker-actor.js';
import type { TrainedMessage } from '../../src/protocol/index.js';
import { eventually, recordingWorker } from '../helpers/in-process.js';

const trained = (iteration: number): TrainedMessage => ({
  type: 'trained',
  workerId: 'learner-0',
  iteration,
  policyVersion: iteration,
  trajectories: 2,
  samples: 8,
  skipped: 0,
  loss: 1,
  samplesPerSec: null,
  checkpoint: null,
  durationMs: 5,
});

const trainCommands = (got: readonly WorkerMsg[]): object[] =>
  got.flatMap((m) => (m.kind === 'send' ? [m.message] : []));

test('train goes out once, again when the learner registers anew, and ends at the trained of its iteration', {
  timeout: 20_000,
}, async () => {
  const system = start();
  try {
    const learner = recordingWorker(system, 'learner-0');
    const coordinator = new TrainCoordinator(() => learner.ref);
    const answers: (TrainedMessage | null)[] = [];
    void coordinator.train(2, 2).then((m) => answers.push(m));
    await eventually(() => trainCommands(learner.got).length === 1, 5000, 'the train command');
    assert.deepEqual(trainCommands(learner.got)[0], {
      type: 'command',
      command: 'train',
      iteration: 2,
      policyVersion: 2,
    });
    // the learner died and came back: it is asked again
    coordinator.learnerReady();
    await eventually(() => trainCommands(learner.got).length === 2, 5000, 'the command again');
    // a late answer for an earlier iteration does not end this one
    coordinator.trained(trained(1));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(answers.length, 0);
    coordinator.trained(trained(2));
    await eventually(() => answers.length === 1, 5000, 'the answer');
    assert.equal(answers[0]?.iteration, 2);
    // nothing pending: a learner that registers now is not asked anything
    coordinator.learnerReady();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(trainCommands(learner.got).length, 2);
  } finally {
    stop(system);
  }
});

test('a learner not yet registered is asked again until the command goes out', {
  timeout: 20_000,
}, async () => {
  const system = start();
  try {
    let registered = false;
    const learner = recordingWorker(system, 'learner-0', { sends: () => registered });
    const coordinator = new TrainCoordinator(() => learner.ref, 2000, 20);
    void coordinator.train(1, 1);
    await eventually(() => trainCommands(learner.got).length >= 3, 5000, 'retries');
    registered = true;
    const tries = trainCommands(learner.got).length;
    await eventually(() => trainCommands(learner.got).length === tries + 1, 5000, 'the one that went out');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(trainCommands(learner.got).length, tries + 1, 'no retry once it went out');
  } finally {
    stop(system);
  }
});

test('a run without a learner trains nothing', async () => {
  const coordinator = new TrainCoordinator(() => null);
  assert.equal(await coordinator.train(1, 1), null);
});
