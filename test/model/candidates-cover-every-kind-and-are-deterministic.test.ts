import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTtiReply } from '../../src/envs/actions/parse-tti.js';
import { actionOfReply, buildCandidates, intentPhrases } from '../../src/model/index.js';
import { columns, input } from './fixtures.js';

test('a small observation yields click, type, answer, back and scroll candidates', () => {
  const actions = buildCandidates(input({ history: ['Click [2]'], step: 1 })).map((c) => c.action);
  for (const a of [
    'Click [11]',
    'Click [5]',
    'Type [4] [Blue Mug]',
    'ANSWER [$12.50]',
    'ANSWER [Done]',
    'GoBack',
    'Scroll [down]',
  ])
    assert.ok(actions.includes(a), `${a} is a candidate`);
  // multi-item answers: a whole column; a whole row is none (it holds everything)
  assert.ok(actions.includes('ANSWER [Blue Mug, Red Kettle, Green Teapot, Steel Spoon Set]'));
  assert.ok(!actions.includes('ANSWER [Blue Mug $12.50]'));
});

test('only visible controls are clicked, only text fields typed into, and nothing is repeated', () => {
  const cs = buildCandidates(input());
  const actions = cs.map((c) => c.action);
  assert.ok(!actions.includes('Click [26]'), 'the Next link is below the fold');
  assert.ok(cs.filter((c) => c.kind === 'type').every((c) => c.action.startsWith('Type [4] ')));
  assert.equal(new Set(actions).size, actions.length);
  assert.ok(!actions.includes('GoBack'), 'nothing to go back to on the first step');
  assert.ok(!actions.includes('Scroll [up]'), 'the page starts at the top');
});

test('candidates are deterministic and every action parses as TTI action of its kind', () => {
  const a = buildCandidates(input());
  const b = buildCandidates(input());
  assert.deepEqual(a, b);
  for (const c of a) {
    const parsed = parseTtiReply(`Thought: x\nAction: ${c.action}`);
    const expected = {
      click: 'click',
      type: 'type',
      hover: 'hover',
      select: 'select_option',
      answer: 'stop',
      back: 'go_back',
      scroll: 'scroll',
      drag: c.action.startsWith('MouseDrag') ? 'mouse_drag' : 'drag',
      point: 'mouse_click',
    }[c.kind];
    assert.equal(parsed.type, expected, c.action);
    assert.equal(actionOfReply(`Thought: x\nAction: ${c.action}`), c.action);
  }
});

test('task phrases: quoted spans, capitalised runs, slashed names and numbers', () => {
  assert.deepEqual(
    intentPhrases(
      'Write a 2-star review of the Granitea Compact Stapler with the summary "Not bad at all", signed E. Lopes',
    ),
    ['Not bad at all', '2-star', 'Granitea Compact Stapler', 'E. Lopes'],
  );
  assert.deepEqual(intentPhrases('Who is assigned to issue #8 in byteblaze/chat-widget?'), [
    '#8',
    'byteblaze/chat-widget',
  ]);
  assert.deepEqual(intentPhrases('Put 3 of the Cindral Smart T-Shirt in my shopping cart'), [
    '3',
    'Cindral Smart T-Shirt',
  ]);
});

test('what the page says takes clicks or focus is clicked; a task that offers no stop gets no answers', () => {
  // A MiniWoB++-like page: a <span> link in running text (clickable StaticText), a text field a task
  // asks to focus (focusable), plain text, and a root that is focusable but never a click.
  const nodes = {
    ...columns([
      [1, 'RootWebArea', 'Page', 0],
      [2, 'StaticText', 'Lorem ipsum ', 1],
      [3, 'StaticText', 'dolor', 1],
      [4, 'textbox', '', 1],
    ]),
    clickable: [0, 0, 1, 1],
    focusable: [1, 0, 0, 1],
  };
  const base = { intent: 'Click on the link "dolor".', nodes };
  const actions = buildCandidates(input(base)).map((c) => c.action);
  for (const a of ['Click [3]', 'Click [4]']) assert.ok(actions.includes(a), `${a} is a candidate`);
  for (const a of ['Click [1]', 'Click [2]']) assert.ok(!actions.includes(a), `${a} is not`);
  assert.ok(
    actions.some((a) => a.startsWith('ANSWER [')),
    'stop is offered by default',
  );
  const noStop = buildCandidates(input({ ...base, offers: { stop: false } })).map((c) => c.action);
  assert.ok(!noStop.some((a) => a.startsWith('ANSWER [')), noStop.join(' | '));
  assert.deepEqual(
    noStop,
    actions.filter((a) => !a.startsWith('ANSWER [')),
  );
  // After a step GoBack is a candidate, unless the task offers no navigation (MiniWoB++).
  const later = { ...base, history: ['Click [3]'] };
  assert.ok(buildCandidates(input(later)).some((c) => c.action === 'GoBack'));
  const noNav = buildCandidates(input({ ...later, offers: { stop: false, navigation: false } }));
  assert.ok(!noNav.some((c) => c.action === 'GoBack'), noNav.map((c) => c.action).join(' | '));
  // Without the columns (an older sender) only the roles decide.
  const plain = buildCandidates(input({ ...base, nodes: columns([[3, 'StaticText', 'dolor', 1]]) }));
  assert.ok(!plain.some((c) => c.kind === 'click'));
});
