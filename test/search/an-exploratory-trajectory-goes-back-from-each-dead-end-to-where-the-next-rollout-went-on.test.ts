// ExACT's exploratory learning (`collect.search_keep: exploratory`, src/search/exploratory.ts): a
// search's rollouts as one trajectory, dead ends included, with GoBack steps from each dead end up
// to the last page it shares with the next rollout; an ending action of a dead end is left out, and
// so is a dead end a GoBack cannot undo.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Observation } from '../../src/envs/index.js';
import { exploratorySteps, type Rollout, type Taken } from '../../src/search/index.js';

const page = (name: string): Observation =>
  ({
    url: `http://site/${name}`,
    text: `[1] RootWebArea '${name}'`,
    nodes: [],
    notes: [],
  }) as unknown as Observation;
const A = page('A');
const B = page('B');
const C = page('C');
const D = page('D');
const E = page('E');
const step = (observation: Observation, reply: string, policyVersion = 1): Taken => ({
  observation,
  reply,
  policyVersion,
});
const back = (observation: Observation, policyVersion: number): Taken =>
  step(observation, 'GoBack', policyVersion);
const read = (steps: readonly Taken[]): string[] =>
  steps.map((t) => `${t.observation.url.slice('http://site/'.length)}:${t.reply}`);

test('dead ends are gone back from, and each rollout goes on from the page it shares', () => {
  const rollouts: Rollout[] = [
    // the first episode: A → B → C, its burst spent on C
    { taken: [step(A, 'c1'), step(B, 'c2')], end: C },
    // back to B (A's step replayed), then on to D, where a wrong answer ended it
    { taken: [step(A, 'c1'), step(B, 'c3'), step(D, 'wrong answer')], end: null },
    // back to A, then on to E and the right answer: the success, kept whole
    { taken: [step(A, 'c4'), step(E, 'right answer', 2)], end: null },
  ];
  assert.deepEqual(read(exploratorySteps(rollouts, back)), [
    'A:c1',
    'B:c2',
    'C:GoBack',
    'B:c3',
    'D:GoBack',
    'B:GoBack',
    'A:c4',
    'E:right answer',
  ]);
});

test('a lone success is the trajectory from the start, and pages differing only by ids are one page', () => {
  const success: Rollout = { taken: [step(A, 'c1'), step(B, 'answer')], end: null };
  assert.deepEqual(read(exploratorySteps([success], back)), ['A:c1', 'B:answer']);
  // the same page B with other element ids: shared, so nothing is gone back over but C
  const bAgain = { ...B, text: "[7] RootWebArea 'B'" } as Observation;
  const steps = exploratorySteps(
    [
      { taken: [step(A, 'c1'), step(B, 'c2')], end: C },
      { taken: [step(A, 'c1'), step(bAgain, 'answer')], end: null },
    ],
    back,
  );
  assert.deepEqual(read(steps), ['A:c1', 'B:c2', 'C:GoBack', 'B:answer']);
  assert.equal(steps[2]?.policyVersion, 1, 'a GoBack acts under the policy of the step before it');
});

test('a dead end that changed a page without leaving its URL is left out: GoBack would not undo it', () => {
  // B with a list opened: the same URL, another page
  const bOpened = { ...B, text: "[1] RootWebArea 'B'\n[2] listbox 'open'" } as Observation;
  const steps = exploratorySteps(
    [
      // A → B → C: a navigation, gone back from
      { taken: [step(A, 'c1'), step(B, 'c2')], end: C },
      // A → B → the list opened on B: no GoBack undoes it, so this rollout is left out
      { taken: [step(A, 'c1'), step(B, 'open the list')], end: bOpened },
      // the success goes on from B, as after the first rollout
      { taken: [step(A, 'c1'), step(B, 'c3'), step(D, 'right answer')], end: null },
    ],
    back,
  );
  assert.deepEqual(read(steps), ['A:c1', 'B:c2', 'C:GoBack', 'B:c3', 'D:right answer']);
  // with nothing before it that can be gone back to, the success is kept from the start
  assert.deepEqual(
    read(
      exploratorySteps(
        [
          { taken: [step(A, 'c1'), step(B, 'open the list')], end: bOpened },
          { taken: [step(A, 'c4'), step(E, 'right answer')], end: null },
        ],
        back,
      ),
    ),
    ['A:c4', 'E:right answer'],
  );
});
