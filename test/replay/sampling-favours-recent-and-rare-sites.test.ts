import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Trajectory } from '../../src/protocol/index.js';
import { sampleTrajectories, samplingWeights } from '../../src/replay/sample.js';
import { SeededRandom } from '../../src/util/random.js';

const make = (i: number, site: string, iteration = 1): Trajectory => ({
  type: 'trajectory',
  episodeId: `run-i${iteration}-c${i}`,
  taskId: `t${i}`,
  site,
  intent: 'a task',
  horizon: 10,
  iteration,
  reward: 1,
  answer: 'x',
  steps: [],
});

// A seeded generator, so the test is the same every run.
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test('weights sum to 1, grow with recency and with the rarity of the site', () => {
  const buffer = [make(0, 'shopping'), make(1, 'shopping'), make(2, 'shopping'), make(3, 'gitlab')];
  const w = samplingWeights(buffer);
  assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  assert.ok(w[2]! > w[0]!, 'more recent weighs more');
  assert.ok(w[3]! > w[2]!, 'the rare, most recent site weighs most');
});

test('a weighted draw without replacement favours the rare site and never repeats', () => {
  const buffer = Array.from({ length: 90 }, (_, i) => make(i, 'shopping')).concat(
    Array.from({ length: 10 }, (_, i) => make(90 + i, 'reddit')),
  );
  const random = lcg(7);
  let reddit = 0;
  for (let trial = 0; trial < 50; trial++) {
    const sample = sampleTrajectories(buffer, 20, random);
    assert.equal(new Set(sample.map((t) => t.episodeId)).size, 20);
    reddit += sample.filter((t) => t.site === 'reddit').length;
  }
  // Uniform sampling would give 10% reddit; half the weight on site balance gives far more.
  assert.ok(reddit / (50 * 20) > 0.25, `reddit share ${reddit / 1000}`);
});

test('with no more than the count, every trajectory is used in order', () => {
  const buffer = [make(0, 'a'), make(1, 'b')];
  assert.deepEqual(sampleTrajectories(buffer, 5, lcg(1)), buffer);
});

test('a sample follows episode order and its seed, not the order replay received the trajectories in', () => {
  // Two iterations of 30, the second's place numbers past 9 (c10 comes after c9, not after c1).
  const inOrder = [
    ...Array.from({ length: 30 }, (_, i) => make(i + 1, i % 3 === 0 ? 'reddit' : 'shopping', 1)),
    ...Array.from({ length: 30 }, (_, i) => make(i + 1, i % 3 === 0 ? 'reddit' : 'shopping', 2)),
  ];
  const arrived = new SeededRandom(3).sample(inOrder, inOrder.length);
  assert.notDeepEqual(arrived, inOrder);
  const ids = (ts: Trajectory[]) => ts.map((t) => t.episodeId);

  assert.deepEqual(
    ids(sampleTrajectories(arrived, 100, Math.random)),
    ids(inOrder),
    'all of them, in episode order',
  );
  const sample = sampleTrajectories(arrived, 20, new SeededRandom(9).next);
  assert.deepEqual(ids(sample), ids(sampleTrajectories(inOrder, 20, new SeededRandom(9).next)));
  assert.deepEqual(
    ids(sample),
    ids(inOrder.filter((t) => sample.includes(t))),
    'the sample itself in episode order',
  );
  assert.notDeepEqual(ids(sample), ids(sampleTrajectories(arrived, 20, new SeededRandom(10).next)));
  // Recency is by iteration: the later iteration is drawn more.
  const late = sample.filter((t) => t.iteration === 2).length;
  assert.ok(late > 10, `${late} of 20 from iteration 2`);
});
