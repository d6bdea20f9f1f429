import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import {
  type BackendName,
  BcTrainer,
  loadBackend,
  type PolicyInput,
  seededRandom,
  TfjsPolicy,
  type TrainingStep,
  trainingSteps,
} from '../../src/model/index.js';
import { input, PRODUCTS, shopPage } from './fixtures.js';

let backend: BackendName;
before(async () => {
  backend = await loadBackend('auto');
});

const priceStep = (name: string, price: string): TrainingStep => ({
  input: input({ intent: `What is the price of ${name}?` }),
  action: `ANSWER [${price}]`,
});

function probability(policy: TfjsPolicy, i: PolicyInput, action: string): number {
  const [d] = policy.distributions([i]);
  const k = d!.candidates.findIndex((c) => c.action === action);
  assert.ok(k >= 0, `${action} is a candidate`);
  return d!.probabilities[k]!;
}

test('a few BC updates on the auto backend drive the chosen answer up and the loss down', () => {
  // the uniform prior knows nothing of prices, so what it knows afterwards was learned
  const policy = TfjsPolicy.create({ seed: 1 });
  const trainer = new BcTrainer(policy, { learningRate: 0.01, clipNorm: 1 });
  const steps = PRODUCTS.map(([n, p]) => priceStep(n, p));
  const before = probability(policy, steps[0]!.input, steps[0]!.action);
  const first = trainer.train(steps, { epochs: 1, batchSize: 4, random: seededRandom(1) });
  let last = first;
  for (let k = 0; k < 6; k++)
    last = trainer.train(steps, { epochs: 4, batchSize: 4, random: seededRandom(k) });
  const after = probability(policy, steps[0]!.input, steps[0]!.action);
  assert.equal(first.samples, 4);
  assert.equal(first.skipped, 0);
  assert.ok(last.loss < first.loss / 4, `${backend}: loss ${first.loss} → ${last.loss}`);
  assert.ok(after > 0.5 && after > 10 * before, `${backend}: p ${before} → ${after}`);
  assert.ok(first.gradNorm > 0 && Number.isFinite(last.gradNorm));
  assert.ok(last.samplesPerSec > 0);
  assert.equal(trainer.steps, 25);
  // each question gets its own product's price: a function of the task, not one string. (A fifth
  // product held out is not asked: from three or four examples that is at chance — 7 of 32 seed ×
  // held-out pairs, whatever the task window; docs/model.md has the real held-out measurements.)
  const decisions = policy.act(
    steps.map((s) => s.input),
    { greedy: true, temperature: 1, random: () => 0 },
  );
  assert.deepEqual(
    decisions.map((d) => d.action),
    steps.map((s) => s.action),
  );
  policy.dispose();
  trainer.dispose();
});

test('steps whose action is not a candidate are skipped and counted', () => {
  const policy = TfjsPolicy.create({ seed: 1 });
  const trainer = new BcTrainer(policy, { learningRate: 0.01, clipNorm: 1 });
  const report = trainer.train([priceStep('Blue Mug', '$12.50'), { input: input(), action: 'Click [999]' }], {
    epochs: 1,
    batchSize: 8,
    random: seededRandom(1),
  });
  assert.equal(report.samples, 1);
  assert.equal(report.skipped, 1);
  assert.equal(report.updates, 1);
  policy.dispose();
});

test('minUpdates keeps making passes over a small set until that many updates were made', () => {
  const policy = TfjsPolicy.create({ seed: 1, hidden: 8 });
  const trainer = new BcTrainer(policy, { learningRate: 0.01, clipNorm: 1 });
  const steps = PRODUCTS.map(([n, p]) => priceStep(n, p));
  const report = trainer.train(steps, { epochs: 1, batchSize: 3, minUpdates: 5, random: seededRandom(1) });
  assert.equal(report.updates, 6, 'two updates a pass, three passes');
  assert.equal(report.epochs, 3);
  const none = trainer.train([{ input: input(), action: 'Click [999]' }], {
    epochs: 1,
    batchSize: 3,
    minUpdates: 5,
    random: seededRandom(1),
  });
  assert.equal(none.updates, 0, 'nothing to learn from: no endless loop');
  policy.dispose();
});

test('trainingSteps turns a trajectory into inputs with the history rebuilt from earlier replies', () => {
  const nodes = shopPage();
  const steps = trainingSteps({
    intent: 'What is the price of Blue Mug?',
    horizon: 10,
    steps: [
      {
        url: 'http://x/shop',
        nodes,
        note: null,
        reply: 'Thought: search it. Action: x\nAction: Type [4] [Blue Mug]',
      },
      {
        url: 'http://x/shop/search',
        nodes,
        note: 'Invalid action: y',
        reply: 'Thought: found\nAction: ANSWER [$12.50]',
      },
    ],
  });
  assert.equal(steps.length, 2);
  assert.deepEqual(
    steps.map((s) => s.action),
    ['Type [4] [Blue Mug]', 'ANSWER [$12.50]'],
  );
  assert.deepEqual(steps[0]!.input.history, []);
  assert.deepEqual(steps[1]!.input.history, ['Type [4] [Blue Mug]']);
  assert.equal(steps[1]!.input.step, 1);
  assert.equal(steps[1]!.input.horizon, 10);
  assert.equal(steps[1]!.input.note, 'Invalid action: y');
  assert.equal(steps[1]!.input.url, 'http://x/shop/search');
});
