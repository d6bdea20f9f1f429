// A sampled action depends on its request's seed (as vLLM's per-request seed), not on what else
// inference batched with it or in which order requests arrived: with the same weights, a run's
// collection draws the same actions however its env workers' timing falls.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadBackend, seededRandom, TfjsPolicy } from '../../src/model/index.js';
import { mixSeeds } from '../../src/util/random.js';
import { input } from './fixtures.js';

before(async () => {
  await loadBackend('auto');
});

const sample = { greedy: false, temperature: 1, random: seededRandom(5) };
const target = input({ intent: 'Add Red Kettle to my cart', step: 1, history: ['Click [2]'] });
const others = [input(), input({ intent: 'How much is the Green Teapot?' }), input({ step: 3 })];

test("a request's seed decides its draw alone, first or last in a batch", () => {
  const policy = TfjsPolicy.create({ seed: 2 });
  const seeds = Array.from({ length: 40 }, (_, k) => mixSeeds(7, k));
  const draws = (batch: typeof others, at: number) =>
    seeds.map(
      (seed) =>
        policy.act(batch, sample, (b) => (b === at ? seededRandom(seed) : seededRandom(seed + b + 1)))[at]!
          .action,
    );
  const alone = draws([target], 0);
  assert.deepEqual(draws([target, ...others], 0), alone);
  assert.deepEqual(draws([...others, target], others.length), alone);
  assert.ok(new Set(alone).size > 1, 'different seeds draw different actions');
  policy.dispose();
});

test('without seeds the batch shares one stream, so a neighbour changes the draw', () => {
  const policy = TfjsPolicy.create({ seed: 2 });
  const stream = (n: number) => ({ ...sample, random: seededRandom(n) });
  let moved = 0;
  for (let n = 0; n < 40; n++) {
    const alone = policy.act([target], stream(n))[0]!.action;
    const last = policy.act([...others, target], stream(n))[others.length]!.action;
    if (alone !== last) moved += 1;
  }
  assert.ok(moved > 0, 'the shared stream is why requests carry seeds');
  policy.dispose();
});

test('mixSeeds separates nearby inputs', () => {
  const seen = new Set<number>();
  for (let episode = 0; episode < 50; episode++)
    for (let step = 0; step < 30; step++) seen.add(mixSeeds(mixSeeds(0, 1, episode), step));
  assert.equal(seen.size, 1500);
  assert.notEqual(mixSeeds(1, 2), mixSeeds(2, 1));
});
