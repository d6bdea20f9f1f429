import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Candidate } from '../../src/model/candidates.js';
import { decide, repeatedSearches } from '../../src/model/policy.js';
import type { PolicyInput } from '../../src/model/types.js';

// node 0: a search box, node 1: a link, node 2: a form's title field
const nodes = {
  ids: [40, 41, 42],
  roles: ['searchbox', 'link', 'textbox'],
  names: ['Search', 'Garden', 'Title'],
  depths: [1, 1, 1],
  inViewport: [1, 1, 1],
};
const candidates: Candidate[] = [
  { kind: 'type', action: 'Type [40] [Garden]', node: 0, text: 'Garden', source: 'intent' },
  { kind: 'click', action: 'Click [41]', node: 1, text: 'Garden', source: 'node' },
  { kind: 'type', action: 'Type [42] [Garden]', node: 2, text: 'Garden', source: 'intent' },
  { kind: 'type', action: 'Type [40] [price]', node: 0, text: 'price', source: 'intent' },
];
const logits = new Float32Array([5, 3, 1, 0]);
const input = (history: string[]): PolicyInput => ({
  intent: 'What does the Garden hose cost? Tell me the price',
  url: 'http://127.0.0.1/shop/search?q=Garden',
  nodes,
  history,
  step: history.length,
  horizon: 10,
  note: null,
});
const greedy = { greedy: true, temperature: 1, random: () => 0 };

test('before any search nothing is excluded and greedy takes the argmax', () => {
  const excluded = repeatedSearches(candidates, input(['Click [7]']));
  assert.equal(excluded.size, 0);
  assert.equal(decide(candidates, logits, greedy, excluded).action, 'Type [40] [Garden]');
});

test('a text already searched is not searched again (the box has a new id on every results page), but may go into a form', () => {
  // the history's id (4) differs from the box's (40): the results page was reloaded
  const excluded = repeatedSearches(candidates, input(['Type [4] [Garden]', 'Click [9]']));
  assert.deepEqual([...excluded], [0]);
  const d = decide(candidates, logits, greedy, excluded);
  assert.equal(d.action, 'Click [41]');
  // its probability is over what was left to choose from
  const left = Math.exp(3) + Math.exp(1) + Math.exp(0);
  assert.ok(Math.abs(Math.exp(d.logProb) - Math.exp(3) / left) < 1e-6);
});

test('sampling never draws an excluded search, whatever the random number', () => {
  const excluded = repeatedSearches(candidates, input(['Type [4] [Garden]']));
  for (const r of [0, 0.2, 0.5, 0.9, 0.999999]) {
    const d = decide(candidates, logits, { greedy: false, temperature: 1, random: () => r }, excluded);
    assert.notEqual(d.action, 'Type [40] [Garden]', `random ${r}`);
  }
  // random() = 0 draws the first candidate left
  assert.equal(
    decide(candidates, logits, { greedy: false, temperature: 1, random: () => 0 }, excluded).action,
    'Click [41]',
  );
});

test('when every candidate is an excluded search, the policy still acts', () => {
  const only = [candidates[0]!];
  const excluded = repeatedSearches(only, input(['Type [4] [Garden]']));
  assert.equal(excluded.size, 1);
  assert.equal(decide(only, new Float32Array([1]), greedy, excluded).action, 'Type [40] [Garden]');
  assert.equal(
    decide(only, new Float32Array([1]), { greedy: false, temperature: 1, random: () => 0.5 }, excluded)
      .action,
    'Type [40] [Garden]',
  );
});
