import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Candidate } from '../../src/model/candidates.js';
import { textsTyped } from '../../src/model/features.js';
import { decide } from '../../src/model/policy.js';

const candidates: Candidate[] = [
  { kind: 'type', action: 'Type [40] [Garden]', node: 3, text: 'Garden', source: 'intent' },
  { kind: 'click', action: 'Click [41]', node: 4, text: 'Garden', source: 'node' },
  { kind: 'type', action: 'Type [40] [price]', node: 3, text: 'price', source: 'intent' },
];
const logits = new Float32Array([5, 3, 1]);
const greedy = { greedy: true, temperature: 1, random: () => 0 };

test('greedy takes the argmax when the episode typed nothing yet', () => {
  assert.equal(decide(candidates, logits, greedy, textsTyped(['Click [7]'])).action, 'Type [40] [Garden]');
});

test('greedy skips retyping a text the episode typed into an earlier page, and takes the next best', () => {
  // the search box has a new id on every results page: the history's id differs
  const typed = textsTyped(['Type [4] [Garden]', 'Click [9]']);
  const d = decide(candidates, logits, greedy, typed);
  assert.equal(d.action, 'Click [41]');
  // its probability is still the softmax's (what was sampled from is unchanged)
  assert.ok(Math.abs(Math.exp(d.logProb) - Math.exp(3) / (Math.exp(5) + Math.exp(3) + Math.exp(1))) < 1e-6);
});

test('greedy retypes when nothing else is left; sampling is never constrained', () => {
  const only = [candidates[0]!];
  assert.equal(
    decide(only, new Float32Array([1]), greedy, textsTyped(['Type [4] [Garden]'])).action,
    'Type [40] [Garden]',
  );
  // random() = 0 samples the first candidate, retyping included
  const sampled = decide(candidates, logits, { greedy: false, temperature: 1, random: () => 0 });
  assert.equal(sampled.action, 'Type [40] [Garden]');
});
