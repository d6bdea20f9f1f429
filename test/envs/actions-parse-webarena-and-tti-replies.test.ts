import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWebArenaAction } from '../../src/envs/actions/parse-webarena.js';
import { parseTtiReply, parseWebArenaReply } from '../../src/envs/index.js';

test('WebArena: the ``` block after "In summary, the next action I will perform is"', () => {
  const reply =
    "Let's think step-by-step. The page lists `orders` ```not this``` hmm. In summary, the next action I will perform is ```click [1234]```";
  assert.deepEqual(parseWebArenaReply(reply), { type: 'click', elementId: '1234' });
  assert.deepEqual(parseWebArenaReply('Then ```type [5] [hello world] [0]```'), {
    type: 'type',
    elementId: '5',
    text: 'hello world',
    pressEnter: false,
    clearFirst: false,
  });
  assert.deepEqual(parseWebArenaReply('stop [$25.99]'), { type: 'stop', answer: '$25.99' });
});

test('WebArena: the whole action space in its string form', () => {
  assert.deepEqual(parseWebArenaAction('type [12] [shoes]'), {
    type: 'type',
    elementId: '12',
    text: 'shoes',
    pressEnter: true,
    clearFirst: false,
  });
  assert.deepEqual(parseWebArenaAction('hover [7]'), { type: 'hover', elementId: '7' });
  assert.deepEqual(parseWebArenaAction('press [Control+a]'), { type: 'press', keyComb: 'Control+a' });
  assert.deepEqual(parseWebArenaAction('scroll [down]'), { type: 'scroll', direction: 'down', by: 'page' });
  assert.deepEqual(parseWebArenaAction('scroll up'), { type: 'scroll', direction: 'up', by: 'page' });
  assert.deepEqual(parseWebArenaAction('goto [http://x.test/a?b=1]'), {
    type: 'goto',
    url: 'http://x.test/a?b=1',
  });
  assert.deepEqual(parseWebArenaAction('tab_focus [2]'), { type: 'tab_focus', pageNumber: 2 });
  // BrowserGym's select_option, in the bracket form
  assert.deepEqual(parseWebArenaAction('select_option [9] [Large (XL)]'), {
    type: 'select_option',
    elementId: '9',
    option: 'Large (XL)',
  });
  for (const t of ['new_tab', 'close_tab', 'go_back', 'go_forward'] as const)
    assert.deepEqual(parseWebArenaAction(t), { type: t });
  assert.deepEqual(parseWebArenaAction('stop'), { type: 'stop', answer: '' });
  assert.deepEqual(parseWebArenaAction('stop [N/A]'), { type: 'stop', answer: 'N/A' });
});

test('WebArena: garbage is a none action with the reason', () => {
  for (const bad of [
    'I will click the button',
    'click [abc]',
    '```fly [3]```',
    '',
    'type [3]',
    'In summary ```tab_focus [x]```',
    '```select_option [9]```',
  ]) {
    const a = parseWebArenaReply(bad);
    assert.equal(a.type, 'none', bad);
  }
  const a = parseWebArenaReply('```click [abc]```');
  assert.equal(a.type === 'none' && a.error, 'Invalid click action click [abc]');
});

test('TTI: Thought/Action replies', () => {
  assert.deepEqual(parseTtiReply('Thought: open it.\nAction: Click [17]'), {
    type: 'click',
    elementId: '17',
  });
  assert.deepEqual(parseTtiReply('Thought: search\nAction: Type [3] [red shoes]'), {
    type: 'type',
    elementId: '3',
    text: 'red shoes',
    pressEnter: true,
    clearFirst: true,
  });
  assert.deepEqual(parseTtiReply('Thought: more\nAction: Scroll [down]'), {
    type: 'scroll',
    direction: 'down',
    by: 'two-thirds',
  });
  assert.deepEqual(parseTtiReply('Thought: list\nAction: Scroll [8] [up]'), {
    type: 'scroll',
    direction: 'up',
    by: 'two-thirds',
    elementId: '8',
  });
  assert.deepEqual(parseTtiReply('Thought: pick\nAction: Select [9] [Large (XL)]'), {
    type: 'select_option',
    elementId: '9',
    option: 'Large (XL)',
  });
  assert.deepEqual(parseTtiReply('Thought: back\nAction: GoBack'), { type: 'go_back' });
  assert.deepEqual(parseTtiReply('Thought: slow\nAction: Wait'), { type: 'wait' });
  assert.deepEqual(parseTtiReply('Thought: done\nAction: ANSWER [42 items]'), {
    type: 'stop',
    answer: '42 items',
  });
});

test('TTI: a reply missing Thought: or Action:, or Click/Type without [digits], is invalid', () => {
  for (const bad of [
    'Action: Click [3]',
    'Thought: hmm, I would click 3',
    'Thought: x\nAction: Click the login button',
    'Thought: x\nAction: Type [abc] [hi]',
    'Thought: x\nAction: Fly [3]',
    'Thought: x\nAction: Select [9]',
  ]) {
    const a = parseTtiReply(bad);
    assert.equal(a.type, 'none', bad);
    assert.match(a.type === 'none' ? a.error : '', /Format ERROR/);
  }
});
