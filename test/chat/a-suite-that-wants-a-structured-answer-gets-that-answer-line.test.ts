// A suite says which answer format it wants (offers.answer): for WebArena-Verified the chat prompt's
// ANSWER line asks for their structured response (task_type, status, retrieved_data, error_details)
// and nothing else in the instructions changes; the reply a model gives in that form reads as a stop
// with a valid response, and free text does not (the env makes it an invalid action).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTtiReply } from '../../src/envs/index.js';
import { buildConversation, type EpisodeContext, loadPromptTemplates } from '../../src/model/chat/index.js';
import { verified } from '../../src/suites/index.js';

const ctx: EpisodeContext = {
  intent: 'How many reviews does the product have?',
  site: 'shopping',
  url: 'http://127.0.0.1:7770/',
  observation: "[3] link 'Reviews (12)'",
  note: null,
  replies: [],
  images: new Map(),
};

function instructions(c: EpisodeContext, prompt = 'webarena'): string {
  const part = buildConversation(loadPromptTemplates(prompt), c, 3)[1]?.content;
  assert.ok(Array.isArray(part) && part[0]?.type === 'text');
  return part[0].text;
}

for (const prompt of ['webarena', 'webvoyager']) {
  test(`${prompt}: the verified format replaces the ANSWER line and only it`, () => {
    const plain = instructions(ctx, prompt);
    const structured = instructions({ ...ctx, offers: { stop: true, answer: 'webarena-verified' } }, prompt);
    assert.equal(instructions({ ...ctx, offers: { stop: true, answer: 'text' } }, prompt), plain);
    const changed = structured.split('\n').filter((l) => !plain.split('\n').includes(l));
    assert.equal(changed.length, 1, changed.join('\n'));
    assert.match(changed[0]!, /^ANSWER \[json\]: .*"task_type".*"status".*"retrieved_data".*"error_details"/);
    assert.doesNotMatch(structured, /ANSWER \[text\]/);
    // a task without a stop keeps none, whatever format it names
    assert.doesNotMatch(
      instructions({ ...ctx, offers: { stop: false, answer: 'webarena-verified' } }, prompt),
      /^ANSWER/m,
    );
  });
}

test('a reply in that form is a stop with a valid response; free text is refused with the reason', () => {
  const reply =
    'Thought: the page shows 12 reviews.\nAction: ANSWER [{"task_type": "RETRIEVE", "status": "SUCCESS", "retrieved_data": [12], "error_details": null}]';
  const action = parseTtiReply(reply);
  assert.equal(action.type, 'stop');
  assert.ok(action.type === 'stop');
  assert.equal(verified.answerError(action.answer), null);
  assert.match(verified.answerError('12') ?? '', /JSON object/);
  assert.match(verified.answerError('{"task_type": "RETRIEVE", "status": "FINE"}') ?? '', /field status/);
});
