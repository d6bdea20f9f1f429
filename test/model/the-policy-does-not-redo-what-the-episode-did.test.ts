import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Candidate } from '../../src/model/candidates.js';
import { decide } from '../../src/model/policy.js';
import {
  actionSignature,
  redundantActions,
  repeatedSearches,
  repeatsOnThisPage,
} from '../../src/model/trail.js';
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

// A project page: a link to itself, another link, and a scrollable window.
const projectNodes = {
  ids: [7, 8, 9],
  roles: ['link', 'link', 'textbox'],
  names: ['byteblaze/docs-site', 'Issues', 'Comment'],
  depths: [1, 1, 1],
  inViewport: [1, 1, 1],
};
const onProject: Candidate[] = [
  { kind: 'click', action: 'Click [7]', node: 0, text: 'byteblaze/docs-site', source: 'node' },
  { kind: 'click', action: 'Click [8]', node: 1, text: 'Issues', source: 'node' },
  { kind: 'type', action: 'Type [9] [fixed]', node: 2, text: 'fixed', source: 'intent' },
  { kind: 'scroll', action: 'Scroll [up]', node: -1, text: '', source: 'none' },
  { kind: 'scroll', action: 'Scroll [down]', node: -1, text: '', source: 'none' },
  { kind: 'answer', action: 'ANSWER [Done]', node: -1, text: 'Done', source: 'none' },
];
const PROJECT = 'http://127.0.0.1/tracker/byteblaze/docs-site';
const onProjectPage = (trail: { url: string; action: string }[]): PolicyInput => ({
  ...input(trail.map((s) => s.action)),
  url: PROJECT,
  nodes: projectNodes,
  trail,
});

test('an action is named by its element, not its id, so a reloaded page still matches', () => {
  // the same link had id 3 before the reload
  const before = { ...projectNodes, ids: [3, 4, 5] };
  assert.equal(actionSignature('Click [3]', before), 'Click [link "byteblaze/docs-site"]');
  assert.equal(actionSignature('Click [7]', projectNodes), 'Click [link "byteblaze/docs-site"]');
  assert.equal(actionSignature('Type [9] [fixed]', projectNodes), 'Type [textbox "Comment"] [fixed]');
  assert.equal(actionSignature('Scroll [down]', projectNodes), 'Scroll [down]');
  assert.equal(actionSignature('Click [99]', projectNodes), 'Click [99]', 'an unknown id stays as it is');
  // one "Upvote" button per post: upvoting the second post is not a repeat of the first
  const posts = {
    ...projectNodes,
    ids: [1, 2, 3],
    roles: ['button', 'button', 'button'],
    names: ['Upvote', 'Upvote', 'Reply'],
  };
  assert.equal(actionSignature('Click [1]', posts), 'Click [button "Upvote"]');
  assert.equal(actionSignature('Click [2]', posts), 'Click [button "Upvote" #2]');
});

test('a click, hover or typing done on this page is not done again here, but may be elsewhere', () => {
  const clicked = [{ url: PROJECT, action: 'Click [link "byteblaze/docs-site"]' }];
  assert.deepEqual([...repeatsOnThisPage(onProject, onProjectPage(clicked))], [0]);
  const elsewhere = [{ url: 'http://127.0.0.1/tracker/', action: 'Click [link "byteblaze/docs-site"]' }];
  assert.deepEqual([...repeatsOnThisPage(onProject, onProjectPage(elsewhere))], []);
  const typed = [{ url: PROJECT, action: 'Type [textbox "Comment"] [fixed]' }];
  assert.deepEqual([...repeatsOnThisPage(onProject, onProjectPage(typed))], [2]);
});

test('a scroll is not undone on the same page, and scrolling on is allowed', () => {
  const down = [{ url: PROJECT, action: 'Scroll [down]' }];
  assert.deepEqual([...repeatsOnThisPage(onProject, onProjectPage(down))], [3], 'up right after down');
  const downThenClick = [...down, { url: PROJECT, action: 'Click [link "Issues"]' }];
  assert.deepEqual([...repeatsOnThisPage(onProject, onProjectPage(downThenClick))], [1]);
});

test('greedy, the policy takes the best action it has not done on this page (what looped in eval)', () => {
  const logits = new Float32Array([9, 1, 0, 0, 0, 2]);
  const clicked = onProjectPage([{ url: PROJECT, action: 'Click [link "byteblaze/docs-site"]' }]);
  assert.equal(
    decide(onProject, logits, greedy, redundantActions(onProject, clicked)).action,
    'ANSWER [Done]',
  );
  // without a trail (a chat policy's env, an old client) nothing changes
  assert.equal(
    decide(onProject, logits, greedy, redundantActions(onProject, input([])))?.action,
    'Click [7]',
  );
});

test('logits that are all NaN still give the first action left, not a crash', () => {
  const nan = new Float32Array([Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
  assert.equal(decide(candidates, nan, greedy, new Set([0])).action, 'Click [41]');
});
