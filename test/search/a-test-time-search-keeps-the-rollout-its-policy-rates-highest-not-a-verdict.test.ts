// Test-time search (`tti-run eval --search branch`, src/search/branch-search.ts) in real Chromium on
// a MiniWoB++-protocol stand-in: the first rollout is the greedy episode, the later ones sample, the
// whole budget is spent, and the episode kept is the finished rollout with the highest mean
// log-probability the policy gave its own actions. The env's verdict is never what chooses: when
// the policy rates a wrong click higher, the search returns that failure although its greedy
// rollout succeeded. Collection's search (pick 'success') still stops at the first success.
// The policy is scripted (the test sets its log-probabilities); the page, browser and env are real.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BrowserEnv, Observation, StepResult } from '../../src/envs/index.js';
import { branchSearch, type SearchPick, type Taken } from '../../src/search/index.js';
import { MINIWOB_VIEWPORT, type MiniwobServer } from '../../src/suites/miniwob/index.js';
import { SeededRandom } from '../../src/util/index.js';
import { miniwobEnv, nodeId, quoted } from '../miniwob/helpers.js';

const HORIZON = 5;
const BUDGET = 6;
const TASK = 'click-named-button@1000003';

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof miniwobEnv>>['task'];

before(async () => {
  ({ env, server, task } = await miniwobEnv({
    horizon: HORIZON,
    viewport: MINIWOB_VIEWPORT,
    offerStop: false,
  }));
});

after(async () => {
  await env?.close();
  await server?.close();
});

/**
 * Rollout 0 (greedy) clicks the named button; later rollouts click any button drawn at random.
 * The log-probability reported for the right button is `right`, for any other `wrong`.
 */
function scriptedPolicy(random: () => number, rollout: () => number, right: number, wrong: number) {
  return async (observation: Observation, _taken: readonly Taken[]) => {
    const target = nodeId(observation, 'button', quoted(env.task?.intent ?? ''));
    const buttons = observation.nodes.filter((n) => n.role === 'button');
    const id = rollout() === 0 ? target : buttons[Math.floor(random() * buttons.length)]!.id;
    return {
      reply: `Thought: scripted.\nAction: Click [${id}]`,
      policyVersion: 0,
      logProb: id === target ? right : wrong,
    };
  };
}

async function search(pick: SearchPick, right: number, wrong: number) {
  const random = new SeededRandom(7).next;
  let rollout = 0;
  const verdicts: boolean[] = [];
  const outcome = await branchSearch({
    budget: BUDGET,
    burst: 2,
    horizon: HORIZON,
    pick,
    random,
    start: (k) => {
      rollout = k;
      return env.reset(task(TASK), { horizon: HORIZON });
    },
    step: async (action): Promise<StepResult> => {
      const result = await env.step(action);
      if (result.done && result.record) verdicts.push(result.record.verdict.success);
      return result;
    },
    act: scriptedPolicy(random, () => rollout, right, wrong),
  });
  await env.abandon();
  return { outcome, verdicts };
}

test('the rollout the policy rates highest is kept even when another one succeeded', async () => {
  const { outcome, verdicts } = await search('likelihood', -2, -0.1);
  assert.equal(verdicts[0], true, 'the greedy rollout clicked the named button');
  assert.ok(verdicts.includes(false), `some sampled rollout clicked another button: ${verdicts}`);
  // the budget is spent, not stopped at the greedy success
  assert.equal(outcome.stats.envSteps, BUDGET);
  assert.equal(outcome.stats.finished, BUDGET);
  assert.equal(outcome.success, false, 'a wrong click the policy rated higher is what the search keeps');
  assert.equal(outcome.record?.verdict.success, false);
  assert.deepEqual(
    outcome.taken.map((t) => t.logProb),
    [-0.1],
  );
});

test('rated highest, the right click is kept; collection stops at its first success', async () => {
  const rated = await search('likelihood', -0.1, -2);
  assert.equal(rated.outcome.success, true);
  assert.equal(rated.outcome.stats.envSteps, BUDGET);
  const collecting = await search('success', -2, -0.1);
  assert.equal(collecting.outcome.success, true);
  assert.equal(collecting.outcome.stats.envSteps, 1, 'collection does not spend the rest of its budget');
});
