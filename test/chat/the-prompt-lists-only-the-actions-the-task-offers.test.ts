// The chat policy's instructions (prompts/*.json) list TTI's actions; a task that offers no stop
// (MiniWoB++: the page ends each episode) gets them without the ANSWER line, one that offers no
// navigation without the GoBack line, a page that needs a drag or a point gets those actions
// (Drag, MouseDrag, MouseClick) after the others, and nothing else changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildConversation, type EpisodeContext, loadPromptTemplates } from '../../src/model/chat/index.js';

const ctx: EpisodeContext = {
  intent: 'Click on the link "dolor".',
  site: 'miniwob',
  url: 'http://127.0.0.1:8000/miniwob/span-link.html',
  observation: "[3] StaticText 'dolor', clickable, visible",
  note: null,
  replies: [],
  images: new Map(),
};

const firstUserText = (c: EpisodeContext, prompt: string): string => {
  const turn = buildConversation(loadPromptTemplates(prompt), c, 3)[1];
  const content = turn?.content;
  assert.ok(Array.isArray(content));
  const part = content[0];
  assert.ok(part?.type === 'text');
  return part.text;
};

for (const prompt of ['webarena', 'webvoyager']) {
  test(`${prompt}: ANSWER is listed where stop is offered (the default), and only there`, () => {
    const offered = firstUserText(ctx, prompt);
    assert.equal(firstUserText({ ...ctx, offers: { stop: true } }, prompt), offered);
    assert.match(offered, /^ANSWER \[text\]: finish with the answer/m);
    const without = firstUserText({ ...ctx, offers: { stop: false } }, prompt);
    assert.doesNotMatch(without, /^ANSWER \[/m);
    for (const action of ['Click [n]', 'Type [n] [text]', 'GoBack', 'Wait'])
      assert.ok(without.includes(action), action);
    // Only that line goes.
    const dropped = offered.split('\n').filter((line) => !without.split('\n').includes(line));
    assert.equal(dropped.length, 1, dropped.join('\n'));
    assert.match(dropped[0] ?? '', /^ANSWER \[/);
  });
}

for (const prompt of ['webarena', 'webvoyager']) {
  test(`${prompt}: GoBack is listed where navigation is offered (the default), and only there`, () => {
    const offered = firstUserText({ ...ctx, offers: { stop: false } }, prompt);
    assert.match(offered, /^GoBack/m);
    const without = firstUserText({ ...ctx, offers: { stop: false, navigation: false } }, prompt);
    assert.doesNotMatch(without, /^GoBack/m);
    const dropped = offered.split('\n').filter((line) => !without.split('\n').includes(line));
    assert.deepEqual(
      dropped.map((line) => line.split(':')[0]),
      ['GoBack'],
    );
  });
}

for (const prompt of ['webarena', 'webvoyager']) {
  test(`${prompt}: the pointer actions a page needs are listed after the others, and only for that page`, () => {
    const plain = firstUserText({ ...ctx, offers: { stop: false } }, prompt);
    assert.doesNotMatch(plain, /^(Drag|MouseClick|MouseDrag) \[/m, 'no page need, no pointer action');
    const lines = (pointer: ('drag' | 'point' | 'text_selection')[]) => {
      const text = firstUserText({ ...ctx, offers: { stop: false, pointer } }, prompt);
      const added = text.split('\n').filter((line) => !plain.split('\n').includes(line));
      // nothing else goes, and the added lines come right after the template's own actions
      assert.ok(
        plain.split('\n').every((line) => text.split('\n').includes(line)),
        'every line stays',
      );
      const at = text.split('\n').indexOf(added[0] ?? '');
      assert.match(text.split('\n')[at - 1] ?? '', /^Wait\b/, `after Wait:\n${text}`);
      return added.map((line) => line.split(' ')[0]);
    };
    assert.deepEqual(lines(['drag']), ['Drag', 'MouseDrag']);
    assert.deepEqual(lines(['point']), ['MouseClick']);
    assert.deepEqual(lines(['text_selection']), ['MouseDrag']);
    assert.deepEqual(lines(['drag', 'point', 'text_selection']), ['Drag', 'MouseDrag', 'MouseClick']);
  });
}
