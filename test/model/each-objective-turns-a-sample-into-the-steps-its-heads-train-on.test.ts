// The objectives `learner.algorithm` names (src/model/objective.ts), each from a sample to the
// steps its passes train on. Filtered BC imitates the kept trajectories with its transforms (edits
// typed over left out) and the demonstrations drawn, and trains no critic; AWR asks replay for
// failures, rates every step by its advantage (a success's steps pass the filter, a failure's do
// not when the critic expects nothing), imitates the weighted ones and the demonstrations, and
// hands the critic every step with its episode's return.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type LearnerKeys,
  OBJECTIVES,
  type ObjectiveInput,
  objectiveNamed,
  type TrainingStep,
  type TrajectoryForTraining,
  trainingSteps,
} from '../../src/model/index.js';

const nodes = {
  ids: [4, 5, 7],
  roles: ['textbox', 'textbox', 'button'],
  names: ['Username', 'Password', 'Login'],
  depths: [1, 1, 1],
  inViewport: [1, 1, 1],
};

/** The password typed into Username first, typed over, then the form sent. */
function login(reward: number): TrajectoryForTraining {
  return {
    intent: 'Enter the username "lyle" and the password "mattis56" and press login.',
    horizon: 30,
    reward,
    steps: ['Type [4] [mattis56]', 'Type [4] [lyle]', 'Type [5] [mattis56]', 'Click [7]'].map((action) => ({
      url: 'http://127.0.0.1:9999/login',
      nodes,
      note: null,
      reply: `Action: ${action}`,
    })),
  };
}

const KEYS: LearnerKeys = {
  cut_detours: true,
  skip_overwritten_edits: true,
  awr_lambda: 0.9,
  awr_threshold: 0.05,
};

function input(trajectories: TrajectoryForTraining[], demos: TrainingStep[]) {
  const logged: string[] = [];
  const rated: number[] = [];
  const given: ObjectiveInput = {
    iteration: 3,
    trajectories,
    demos,
    // a critic that expects nothing anywhere
    values: async (steps) => {
      rated.push(steps.length);
      return new Float32Array(steps.length);
    },
    log: (m) => logged.push(m),
  };
  return { given, logged, rated };
}

/** a demonstration's step, told apart by its action */
const demo: TrainingStep = { ...trainingSteps(login(1))[0]!, action: 'X' };

test('the registry holds filtered BC and AWR, and only AWR asks replay for failures', () => {
  assert.deepEqual(Object.keys(OBJECTIVES).sort(), ['awr', 'filtered_bc']);
  assert.equal(objectiveNamed('filtered_bc').failures, false);
  assert.equal(objectiveNamed('awr').failures, true);
});

test('filtered BC imitates the kept steps without the edit typed over, then the demonstrations', async () => {
  const { given, logged, rated } = input([login(1)], [demo]);
  const passes = await objectiveNamed('filtered_bc').passes(given, KEYS);
  assert.deepEqual(
    passes.policy.map((s) => s.action),
    ['Type [4] [lyle]', 'Type [5] [mattis56]', 'Click [7]', 'X'],
  );
  assert.deepEqual(passes.critic, []);
  assert.deepEqual(rated, [], 'filtered BC never asks the critic');
  assert.deepEqual(logged, ['iteration 3: 1 edits typed over later are not imitated']);
  const every = await objectiveNamed('filtered_bc').passes(input([login(1)], []).given, {
    ...KEYS,
    skip_overwritten_edits: false,
  });
  assert.equal(every.policy.length, 4);
});

test("AWR imitates a success's steps but not a failure's, and its critic learns from both", async () => {
  const { given, logged, rated } = input([login(1), login(0)], [demo]);
  const passes = await objectiveNamed('awr').passes(given, KEYS);
  // the success's steps but the one typed over, then the demonstration
  assert.deepEqual(
    passes.policy.map((s) => [s.action, s.weight ?? 1]),
    [
      ['Type [4] [lyle]', 1],
      ['Type [5] [mattis56]', 1],
      ['Click [7]', 1],
      ['X', 1],
    ],
  );
  assert.deepEqual(
    passes.critic.map((s) => s.valueTarget),
    [1, 1, 1, 1, 0, 0, 0, 0],
  );
  assert.deepEqual(rated, [8], 'every step rated once, before any update');
  assert.deepEqual(passes.counters, { meanValue: 0 });
  assert.match(logged[0]!, /^iteration 3 awr: 8 steps \(4 of failures\).*2 edits typed over not imitated$/);
});
