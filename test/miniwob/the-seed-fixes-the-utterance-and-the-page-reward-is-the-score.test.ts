// MiniWoB++'s episode protocol on its real pages, through the real browser env: the seed fixes the
// instance, the page's reward is the score (success, failure, the page's own timeout, the horizon),
// stop and navigation are refused where not offered, an unknown page is a setup error. Stand-ins
// (test/fixtures/miniwob/html) stay for what no real page shows: an object utterance (real core.js
// returns a string), a partial reward of a known value, an href='#' link, a link off the task page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type BrowserEnv, EpisodeSetupError } from '../../src/envs/index.js';
import type { MiniwobServer } from '../../src/suites/miniwob/index.js';
import { miniwobEnv, nodeId, quoted, realMiniwobEnv } from './helpers.js';

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof miniwobEnv>>['task'];
/** the stand-ins, for what no real page shows */
let standin: Awaited<ReturnType<typeof miniwobEnv>>;

before(async () => {
  ({ env, server, task } = await realMiniwobEnv({ horizon: 5 }));
  standin = await miniwobEnv({ horizon: 5 });
});
after(async () => {
  await env.close();
  await server.close();
  await standin.env.close();
  await standin.server.close();
});

test('the same seed gives the same utterance, different seeds mostly different ones', async () => {
  const utterance = async (id: string) => {
    await env.reset(task(id));
    const intent = env.task?.intent ?? '';
    await env.abandon();
    return intent;
  };
  const first = await utterance('enter-password@7');
  assert.match(first, /^Enter the password "\w+" into both text fields and press submit\.$/);
  assert.equal(await utterance('enter-password@7'), first);
  const others = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5]) others.add(await utterance(`enter-password@${seed}`));
  assert.ok(others.size >= 3, `five seeds gave ${others.size} utterances: ${[...others].join(' | ')}`);
});

test('clicking the named button ends the episode when the page says done, with reward 1', async () => {
  const obs = await env.reset(task('click-test-2@11'));
  const intent = env.task?.intent ?? '';
  assert.equal(intent, 'Click button ONE.');
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'button', 'ONE') });
  assert.equal(result.done, true);
  assert.equal(result.record?.endReason, 'task_done');
  assert.equal(result.record?.verdict.success, true);
  assert.equal(result.record?.verdict.score, 1);
  assert.equal(result.record?.task.intent, intent, 'the record keeps the page utterance as the intent');
});

test('the wrong button scores -1 and is a failure', async () => {
  const obs = await env.reset(task('click-test-2@12'));
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'button', 'TWO') });
  assert.equal(result.record?.endReason, 'task_done');
  assert.equal(result.record?.verdict.success, false);
  assert.equal(result.record?.verdict.score, -1);
});

test('typing the password into both fields and submitting scores 1', async () => {
  let obs = await env.reset(task('enter-password@3'));
  const word = quoted(env.task?.intent ?? '');
  for (const k of [0, 1]) {
    const field = obs.nodes.filter((n) => n.role === 'textbox')[k];
    assert.ok(field, obs.text);
    const typed = await env.step({
      type: 'type',
      elementId: field.id,
      text: word,
      pressEnter: false,
      clearFirst: true,
    });
    assert.equal(typed.done, false, 'typing alone does not end the episode');
    obs = typed.observation!;
  }
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'button', 'Submit') });
  assert.equal(result.record?.verdict.score, 1, result.record?.verdict.why);
});

test('(stand-in) an object utterance gives its text; typing the word and submitting scores 1', async () => {
  const { env, task } = standin;
  let obs = await env.reset(task('type-word-submit@3'));
  const intent = env.task?.intent ?? '';
  assert.match(intent, /^Type "\w+" into the field and press Submit\.$/);
  const field = obs.nodes.find((n) => n.role === 'textbox');
  assert.ok(field, obs.text);
  const typed = await env.step({
    type: 'type',
    elementId: field.id,
    text: quoted(intent),
    pressEnter: false,
    clearFirst: true,
  });
  assert.equal(typed.done, false, 'typing alone does not end the episode');
  obs = typed.observation!;
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'button', 'Submit') });
  assert.equal(result.record?.verdict.score, 1);
});

test('(stand-in) a partial reward is the score, and counts as a success (raw reward > 0)', async () => {
  const { env, task } = standin;
  let obs = await env.reset(task('partial-checkboxes@5'));
  const wanted = /^Select (\w+) and (\w+),/.exec(env.task?.intent ?? '');
  assert.ok(wanted, env.task?.intent);
  const box = obs.nodes.find((n) => n.role === 'checkbox' && n.name.trim() === wanted[1]);
  assert.ok(box, obs.text);
  obs = (await env.step({ type: 'click', elementId: box.id })).observation!;
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'button', 'Submit') });
  assert.equal(result.record?.endReason, 'task_done');
  assert.equal(result.record?.verdict.score, 0.5);
  assert.equal(result.record?.verdict.success, true);
  assert.match(result.record?.verdict.why ?? '', /1 of 2 boxes/);
});

test("(stand-in) an href='#' link changes only the fragment: the episode scores from the page", async () => {
  const { env, task } = standin;
  const obs = await env.reset(task('hash-link@9'));
  const result = await env.step({
    type: 'click',
    elementId: nodeId(obs, 'link', quoted(env.task?.intent ?? '')),
  });
  assert.equal(result.record?.endReason, 'task_done');
  assert.equal(result.record?.verdict.score, 1);
});

test('(stand-in) leaving the task page ends the episode as a failure', async () => {
  const { env, task } = standin;
  const obs = await env.reset(task('hash-link@9'));
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'link', 'Leave') });
  assert.equal(result.record?.endReason, 'left_page');
  assert.equal(result.record?.verdict.success, false);
  assert.equal(result.record?.verdict.score, 0);
});

test('an episode the page has not ended stops at the horizon with reward 0', async () => {
  await env.reset(task('enter-password@1'), { horizon: 2 });
  assert.equal((await env.step({ type: 'wait' })).done, false);
  const result = await env.step({ type: 'wait' });
  assert.equal(result.record?.endReason, 'horizon');
  assert.equal(result.record?.verdict.success, false);
  assert.equal(result.record?.verdict.score, 0);
  assert.match(result.record?.verdict.why ?? '', /did not say done/);
});

test('a stop answer, where stop is offered, ends the episode; the page decides the reward', async () => {
  await env.reset(task('click-test-2@2'));
  const result = await env.step({ type: 'stop', answer: 'done' });
  assert.equal(result.record?.endReason, 'answer');
  assert.equal(result.record?.verdict.score, 0);
});

test('where stop is not offered (MiniWoB++ by default) an ANSWER is an invalid action and the episode goes on', async () => {
  const noStop = await realMiniwobEnv({ horizon: 5, offerStop: false });
  try {
    const obs = await noStop.env.reset(noStop.task('click-test-2@2'));
    const answered = await noStop.env.step('Thought: done.\nAction: ANSWER [done]');
    assert.equal(answered.done, false);
    assert.equal(answered.action.type, 'none');
    assert.match(answered.observation?.notes.join('\n') ?? '', /^Invalid action: this task offers no ANSWER/);
    const clicked = await noStop.env.step({ type: 'click', elementId: nodeId(obs, 'button', 'ONE') });
    assert.equal(clicked.record?.endReason, 'task_done');
    // The page's rewards, raw and time-discounted, are the verdict's.
    const rewards = clicked.record?.verdict.pageReward;
    assert.equal(rewards?.raw, 1);
    assert.ok(rewards !== undefined && rewards.discounted > 0 && rewards.discounted <= 1);
  } finally {
    await noStop.env.close();
    await noStop.server.close();
  }
});

test('where navigation is not offered (MiniWoB++ by default) going back is an invalid action and the page stays', async () => {
  const noNav = await realMiniwobEnv({ horizon: 5, offerStop: false, offerNavigation: false });
  try {
    const obs = await noNav.env.reset(noNav.task('click-test-2@2'));
    const back = await noNav.env.step('Thought: back.\nAction: GoBack');
    assert.equal(back.done, false, 'the episode goes on (with navigation, GoBack leaves the task page)');
    assert.equal(back.action.type, 'none');
    assert.match(back.observation?.notes.join('\n') ?? '', /^Invalid action: this task offers no going back/);
    assert.equal(back.observation?.url, obs.url);
    const clicked = await noNav.env.step({ type: 'click', elementId: nodeId(obs, 'button', 'ONE') });
    assert.equal(clicked.record?.endReason, 'task_done');
  } finally {
    await noNav.env.close();
    await noNav.server.close();
  }
});

test('an unknown task page is a setup error naming the task and the URL', async () => {
  await assert.rejects(env.reset(task('no-such-task@1')), (e: Error) => {
    assert.ok(e instanceof EpisodeSetupError);
    assert.match(e.message, /no MiniWoB\+\+ task "no-such-task".*no-such-task\.html answered HTTP 404/);
    return true;
  });
});

test("the page's own timeout ends the episode with reward -1 when EPISODE_MAX_TIME is short", async () => {
  const short = await realMiniwobEnv(
    {
      horizon: 20,
      viewport: { width: 332, height: 214 },
    },
    { episodeMaxTimeMs: 1200 },
  );
  try {
    await short.env.reset(short.task('enter-password@1'));
    let record = null;
    const started = Date.now();
    // Alternating actions, so the repeated-action early stop stays out of it.
    for (let i = 0; record === null && Date.now() - started < 60_000; i++) {
      const r = await short.env.step(
        i % 2 === 0 ? { type: 'wait' } : { type: 'scroll', direction: 'down', by: 'two-thirds' },
      );
      record = r.record;
    }
    assert.ok(record, 'the page ended the episode');
    assert.equal(record.endReason, 'task_done');
    assert.equal(record.verdict.score, -1);
    assert.match(record.verdict.why, /timed out/);
  } finally {
    await short.env.close();
    await short.server.close();
  }
});
