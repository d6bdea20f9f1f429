import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Candidate } from '../../src/model/candidates.js';
import { decide, seededRandom } from '../../src/model/policy.js';

const candidates: Candidate[] = ['Garden', 'Tools', 'Kitchen', 'Toys'].map((text, node) => ({
  kind: 'click',
  action: `Click [${40 + node}]`,
  node,
  text,
  source: 'node',
}));
// probabilities 0.5, 0.3, 0.15, 0.05
const logits = new Float32Array([0.5, 0.3, 0.15, 0.05].map(Math.log));

function drawn(topP: number | undefined, excluded?: ReadonlySet<number>): Map<string, number> {
  const random = seededRandom(3);
  const counts = new Map<string, number>();
  for (let i = 0; i < 4000; i++) {
    const d = decide(candidates, logits, { greedy: false, temperature: 1, topP, random }, excluded);
    counts.set(d.action, (counts.get(d.action) ?? 0) + 1);
  }
  return counts;
}

test('top_p 0.8 draws only from the two candidates whose probabilities first reach 0.8', () => {
  const counts = drawn(0.8);
  assert.deepEqual([...counts.keys()].sort(), ['Click [40]', 'Click [41]']);
  // renormalised within the nucleus: 0.5 / 0.8 of draws
  const share = (counts.get('Click [40]') ?? 0) / 4000;
  assert.ok(Math.abs(share - 0.625) < 0.03, `share ${share}`);
});

test('the candidate that crosses top_p is kept (0.81 needs the third)', () => {
  assert.deepEqual([...drawn(0.81).keys()].sort(), ['Click [40]', 'Click [41]', 'Click [42]']);
});

test('without top_p, or at 1, every candidate can be drawn', () => {
  assert.equal(drawn(undefined).size, 4);
  assert.equal(drawn(1).size, 4);
});

test("a drawn action's log-probability is its share of the nucleus", () => {
  const d = decide(candidates, logits, { greedy: false, temperature: 1, topP: 0.8, random: () => 0 });
  assert.equal(d.action, 'Click [40]');
  assert.ok(Math.abs(Math.exp(d.logProb) - 0.5 / 0.8) < 1e-6);
});

test('a tiny top_p samples the most likely candidate left, after exclusions', () => {
  assert.deepEqual([...drawn(1e-6).keys()], ['Click [40]']);
  assert.deepEqual([...drawn(1e-6, new Set([0])).keys()], ['Click [41]']);
});

test('greedy ignores top_p', () => {
  const d = decide(candidates, logits, { greedy: true, temperature: 1, topP: 0.1, random: () => 0.99 });
  assert.equal(d.action, 'Click [40]');
});
