// ExACT's exploratory learning (`collect.search_keep: exploratory`, src/search/exploratory.ts): a
// search's rollouts as one trajectory, dead ends included, with steps back from each dead end up
// to the last page it shares with the next rollout; an ending action of a dead end is left out, and
// so is a dead end with a step nothing undoes. `wayBack` (src/search/way-back.ts) says what undoes
// a step in the run's action format: a GoBack a navigation, the opposite scroll a scroll.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Observation } from '../../src/envs/index.js';
import { exploratorySteps, type Rollout, type Taken, wayBack } from '../../src/search/index.js';

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
// a GoBack over a navigation, nothing over a change within a page
const back = (observation: Observation, policyVersion: number, _done: Taken, navigated: boolean) =>
  navigated ? step(observation, 'GoBack', policyVersion) : null;
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

test('a scroll on the way back is undone by the opposite scroll, a GoBack the policy took is not', () => {
  const undo = wayBack('tti');
  const tti = (observation: Observation, action: string) =>
    step(observation, `Thought: .\nAction: ${action}`);
  const actions = (steps: readonly Taken[]) =>
    steps.map((t) => `${t.observation.url.slice('http://site/'.length)}:${t.reply.split('Action: ')[1]}`);
  // B scrolled: the same URL, another page
  const bScrolled = { ...B, text: "[1] RootWebArea 'B'\n[9] link 'further down'" } as Observation;
  const steps = exploratorySteps(
    [
      // A → B, scrolled down, → C: back from C, then up again on B
      { taken: [tti(A, 'Click [1]'), tti(B, 'Scroll [down]'), tti(bScrolled, 'Click [9]')], end: C },
      { taken: [tti(A, 'Click [1]'), tti(B, 'Click [2]'), tti(D, 'ANSWER [x]')], end: null },
    ],
    undo,
  );
  assert.deepEqual(actions(steps), [
    'A:Click [1]',
    'B:Scroll [down]',
    'B:Click [9]',
    'C:GoBack',
    'B:Scroll [up]',
    'B:Click [2]',
    'D:ANSWER [x]',
  ]);
  assert.equal(steps[4]?.actionText, 'scroll [up]');
  // an element's scroll is undone on that element; WebArena's format says it its own way
  const onElement = undo(bScrolled, 1, tti(B, 'Scroll [5] [down]'), false);
  assert.match(onElement?.reply ?? '', /Action: Scroll \[5\] \[up\]$/);
  const webarena = wayBack('webarena')(bScrolled, 1, step(B, 'In summary ... ```scroll [down]```'), false);
  assert.match(webarena?.reply ?? '', /```scroll \[up\]```$/);
  // history moves back, not forward: a GoBack the policy took cannot be gone back over
  assert.equal(undo(A, 1, tti(B, 'GoBack'), true), null);
  assert.equal(undo(B, 1, tti(B, 'Type [3] [hello]'), false), null, 'a field typed in');
  assert.equal(undo(C, 1, tti(B, 'Click [2]'), true)?.reply.split('Action: ')[1], 'GoBack');
});
