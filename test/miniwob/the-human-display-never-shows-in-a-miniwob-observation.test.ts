// BrowserGym's remove_human_display on MiniWoB++'s real pages, through the real browser env: the
// display a person watches (last reward, the last 10 average, time left, episodes done) and the
// instruction never reach an observation, while the page's own code, which writes into them, still
// runs (the utterance is read, episodes end and score). Without the removal the display shows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BrowserEnv } from '../../src/envs/index.js';
import { MINIWOB_VIEWPORT, type MiniwobServer } from '../../src/suites/miniwob/index.js';
import { HUMAN_DISPLAY, humanDisplayShown, nodeId, quoted, realMiniwobEnv } from './helpers.js';

/** Real pages of several kinds: a form, buttons, checkboxes, an inbox, an autocomplete, tabs, a sortable list. */
const PAGES = [
  'enter-password',
  'click-test-2',
  'click-checkboxes-soft',
  'email-inbox-delete',
  'use-autocomplete-nodelay',
  'click-tab-2',
  'drag-items',
];

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof realMiniwobEnv>>['task'];

before(async () => {
  ({ env, server, task } = await realMiniwobEnv({
    horizon: 10,
    viewport: MINIWOB_VIEWPORT,
    observation: { flags: true },
    offerStop: false,
  }));
});
after(async () => {
  await env.close();
  await server.close();
});

test('no first observation of a MiniWoB++ page shows the human display or the instruction', async () => {
  for (const name of PAGES) {
    const first = await env.reset(task(`${name}@2`));
    const intent = env.task?.intent ?? '';
    await env.abandon();
    assert.ok(intent.length > 10, `${name}: the utterance is read (${JSON.stringify(intent)})`);
    assert.deepEqual(
      humanDisplayShown(first),
      [],
      `${name}: the first observation shows the display:\n${first.text}`,
    );
    assert.ok(!first.text.includes(intent), `${name}: the instruction is in the page:\n${first.text}`);
  }
});

test("the page's own code still runs: it ends the episode and scores, and no step shows the display", async () => {
  // (every stand-in oracle's every observation is checked the same way in
  // every-stand-in-page-is-solved-by-its-oracle-through-actions-the-policy-offers)
  let obs = await env.reset(task('enter-password@4'));
  const word = quoted(env.task?.intent ?? '');
  const seen = [obs];
  for (const k of [0, 1]) {
    const field = obs.nodes.filter((n) => n.role === 'textbox')[k]!;
    obs = (
      await env.step({ type: 'type', elementId: field.id, text: word, pressEnter: false, clearFirst: true })
    ).observation!;
    seen.push(obs);
  }
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'button', 'Submit') });
  for (const o of seen) assert.deepEqual(humanDisplayShown(o), [], o.text);
  assert.equal(result.record?.endReason, 'task_done');
  assert.ok((result.record?.verdict.score ?? 0) > 0, result.record?.verdict.why);
});

test('with remove_human_display off the display and the instruction show (what the removal hides)', async () => {
  const {
    env: plain,
    server: own,
    task: ownTask,
  } = await realMiniwobEnv({ viewport: MINIWOB_VIEWPORT }, { removeHumanDisplay: false });
  try {
    const obs = await plain.reset(ownTask('click-test-2@2'));
    assert.deepEqual(humanDisplayShown(obs), HUMAN_DISPLAY, obs.text);
    assert.ok(obs.text.includes(plain.task?.intent ?? '?'), obs.text);
  } finally {
    await plain.close();
    await own.close();
  }
});
