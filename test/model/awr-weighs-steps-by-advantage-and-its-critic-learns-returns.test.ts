import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  advantageWeight,
  awrSteps,
  BcTrainer,
  loadBackend,
  type PolicyInput,
  seededRandom,
  TfjsPolicy,
  type TrajectoryForTraining,
} from '../../src/model/index.js';
import { PRODUCTS, shopPage } from './fixtures.js';

const OPTIONS = { lambda: 0.5, threshold: 0.05 };

/** A one-step episode on the shop page answering `answer` to "the price of `name`". */
function episode(name: string, answer: string, reward: number, rawReward?: number): TrajectoryForTraining {
  return {
    intent: `What is the price of ${name}?`,
    horizon: 5,
    reward,
    ...(rawReward === undefined ? {} : { rawReward }),
    steps: [
      {
        url: 'http://127.0.0.1:7770/shop',
        nodes: shopPage(),
        note: null,
        reply: `Thought: the row says so.\nAction: ANSWER [${answer}]`,
      },
    ],
  };
}

test("the advantage mixes the episode's reward by the steps left with the critic's change, the page reward comes first, and weights follow it", async () => {
  const twoSteps: TrajectoryForTraining = {
    ...episode('Blue Mug', '$12.50', 1),
    steps: [
      {
        url: 'http://127.0.0.1:7770/shop',
        nodes: shopPage(),
        note: null,
        reply: 'Action: click [5]',
      },
      ...episode('Blue Mug', '$12.50', 1).steps,
    ],
  };
  const failed = episode('Red Kettle', '$12.50', 0, -1);
  const critic = (steps: readonly unknown[]) => new Float32Array(steps.length).fill(0.2);
  const { steps, stats } = await awrSteps([twoSteps, failed], critic, OPTIONS);
  assert.deepEqual(
    steps.map((s) => s.valueTarget),
    [1, 1, -1],
  );
  // A = λ^(left)·R + (1−λ)(V(next) − V): 0.5·1 + 0.5·(0.2 − 0.2); 1 + 0.5·(1 − 0.2); −1 + 0.5·(−1 − 0.2)
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-6, `${a} vs ${b}`);
  close(stats.meanAdvantage, (0.5 + 1.4 - 1.6) / 3);
  // DigiRL's filter: the two steps above the threshold weigh 1, the failure's 0
  assert.deepEqual(
    steps.map((s) => s.weight),
    [1, 1, 0],
  );
  assert.equal(stats.failureSteps, 1, JSON.stringify(stats));
  assert.equal(stats.failureWeightShare, 0);
  assert.equal(advantageWeight(0.06, OPTIONS), 1);
  assert.equal(advantageWeight(0.04, OPTIONS), 0);
});

test('an edit typed over later weighs nothing for the policy, as under filtered BC, and the critic still learns from it', async () => {
  const page = episode('Blue Mug', '$12.50', 1).steps[0]!;
  const typedOver: TrajectoryForTraining = {
    ...episode('Blue Mug', '$12.50', 1),
    steps: [
      { ...page, reply: 'Action: Type [7] [Red Kettle]' },
      { ...page, reply: 'Action: Type [7] [Blue Mug]' },
      page,
    ],
  };
  const critic = (steps: readonly unknown[]) => new Float32Array(steps.length).fill(0);
  const filter = OPTIONS;
  const skipped = await awrSteps([typedOver], critic, { ...filter, skipOverwrittenEdits: true });
  assert.deepEqual(
    skipped.steps.map((s) => s.weight),
    [0, 1, 1],
  );
  assert.equal(skipped.stats.overwritten, 1);
  assert.deepEqual(
    skipped.steps.map((s) => s.valueTarget),
    [1, 1, 1],
  );
  const kept = await awrSteps([typedOver], critic, filter);
  assert.deepEqual(
    kept.steps.map((s) => s.weight),
    [1, 1, 1],
  );
});

/**
 * Tasks on the first two products succeed; on the others the episode answers another row's price
 * and the page scores −1. Plain BC on every episode would learn to answer the wrong row.
 */
async function trainOnMixedEpisodes() {
  const data: TrajectoryForTraining[] = [];
  for (let k = 0; k < 4; k++) {
    const [name, price] = PRODUCTS[k]!;
    const wrong = PRODUCTS[(k + 1) % 4]![1];
    if (k < 2) data.push(episode(name, price, 1, 1));
    else for (let r = 0; r < 3; r++) data.push(episode(name, wrong, 0, -1));
  }
  const options = OPTIONS;
  const policy = TfjsPolicy.create({ seed: 3, hidden: 32 });
  const trainer = new BcTrainer(policy, { learningRate: 0.01, clipNorm: 1 });
  for (let round = 0; round < 8; round++) {
    // as the learner does: the policy on the steps that weigh something, then the critic on all
    const { steps } = await awrSteps(data, (s) => trainer.values(s), options);
    const weighted = steps.filter((s) => s.weight! > 0);
    if (weighted.length > 0)
      trainer.train(weighted, { epochs: 4, batchSize: 8, random: seededRandom(round) });
    trainer.train(steps, { epochs: 25, batchSize: 8, mode: 'critic', random: seededRandom(round) });
  }
  const { steps } = await awrSteps(data, (s) => trainer.values(s), options);
  const values = trainer.values(steps);
  // on a failed task: the right answer, and the wrong one its failures showed
  const [name, price] = PRODUCTS[2]!;
  const wrong = PRODUCTS[3]![1];
  const at: PolicyInput = {
    intent: `What is the price of ${name}?`,
    url: 'http://127.0.0.1:7770/shop',
    nodes: shopPage(),
    history: [],
    step: 0,
    horizon: 5,
    note: null,
  };
  const [d] = policy.distributions([at]);
  const p = (answer: string) =>
    d!.probabilities[d!.candidates.findIndex((c) => c.action === `ANSWER [${answer}]`)]!;
  // what inference sends with each action (act_reply.value) is the same critic
  const solvedInput = { ...at, intent: data[0]!.intent };
  const acted = policy.act([solvedInput], { greedy: true, temperature: 1, random: () => 0 })[0]!;
  assert.ok(Math.abs(acted.value! - values[0]!) < 1e-4, `act's value ${acted.value} vs critic ${values[0]}`);
  const result = {
    solved: [values[0]!, values[1]!],
    failed: [...values.slice(2)],
    right: p(price),
    wrong: p(wrong),
  };
  policy.dispose();
  trainer.dispose();
  return result;
}

test('with the filter, the critic tells a task the policy solves from one it fails, and failures do not teach their answer', async () => {
  await loadBackend('auto');
  const r = await trainOnMixedEpisodes();
  assert.ok(
    Math.min(...r.solved) > Math.max(...r.failed) + 0.05,
    `critic: solved ${r.solved.map((v) => v.toFixed(2))}, failed ${r.failed.map((v) => v.toFixed(2))}`,
  );
  assert.ok(r.wrong < 0.05, `p(wrong, shown by failures) ${r.wrong}`);
});
