// MiniWoB++'s episode protocol on tti's stand-in pages, through the real browser env: the seed fixes
// the instance, the page's reward is the score (success, failure, partial reward, the page's own
// timeout, the horizon), href='#' links keep the agent on the task page, and leaving it fails.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type BrowserEnv, EpisodeSetupError } from '../../src/envs/index.js';
import type { MiniwobServer } from '../../src/suites/miniwob/index.js';
import { miniwobEnv, nodeId, quoted } from './helpers.js';

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof miniwobEnv>>['task'];

before(async () => {
  ({ env, server, task } = await miniwobEnv({ horizon: 5 }));
});
after(async () => {
  await env.close();
  await server.close();
});

test('the same seed gives the same utterance, different seeds mostly different ones', async () => {
  const utterance = async (id: string) => {
    await env.reset(task(id));
    const intent = env.task?.intent ?? '';
    await env.abandon();
    return intent;
  };
  const first = await utterance('click-named-button@7');
  assert.match(first, /^Click on the "\w+" button\.$/);
  assert.equal(await utterance('click-named-button@7'), first);
  const others = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5]) others.add(await utterance(`click-named-button@${seed}`));
  assert.ok(others.size >= 3, `five seeds gave ${others.size} utterances: ${[...others].join(' | ')}`);
});

test('clicking the named button ends the episode when the page says done, with reward 1', async () => {
  const obs = await env.reset(task('click-named-button@11'));
  const intent = env.task?.intent ?? '';
  assert.ok(obs.text.includes(quoted(intent)), 'the observation shows the buttons');
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'button', quoted(intent)) });
  assert.equal(result.done, true);
  assert.equal(result.record?.endReason, 'task_done');
  assert.equal(result.record?.verdict.success, true);
  assert.equal(result.record?.verdict.score, 1);
  assert.equal(result.record?.task.intent, intent, 'the record keeps the page utterance as the intent');
});

test('the wrong button scores -1 and is a failure', async () => {
  const obs = await env.reset(task('click-named-button@12'));
  const target = quoted(env.task?.intent ?? '');
  const wrong = obs.nodes.find((n) => n.role === 'button' && n.name.trim() !== target);
  assert.ok(wrong);
  const result = await env.step({ type: 'click', elementId: wrong.id });
  assert.equal(result.record?.endReason, 'task_done');
  assert.equal(result.record?.verdict.success, false);
  assert.equal(result.record?.verdict.score, -1);
});

test('an object utterance gives its text; typing the word and submitting scores 1', async () => {
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

test('a partial reward is the score, and counts as a success (raw reward > 0)', async () => {
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

test("an href='#' link changes only the fragment: the episode scores from the page", async () => {
  const obs = await env.reset(task('hash-link@9'));
  const result = await env.step({
    type: 'click',
    elementId: nodeId(obs, 'link', quoted(env.task?.intent ?? '')),
  });
  assert.equal(result.record?.endReason, 'task_done');
  assert.equal(result.record?.verdict.score, 1);
});

test('leaving the task page ends the episode as a failure', async () => {
  const obs = await env.reset(task('hash-link@9'));
  const result = await env.step({ type: 'click', elementId: nodeId(obs, 'link', 'Leave') });
  assert.equal(result.record?.endReason, 'left_page');
  assert.equal(result.record?.verdict.success, false);
  assert.equal(result.record?.verdict.score, 0);
});

test('an episode the page has not ended stops at the horizon with reward 0', async () => {
  await env.reset(task('wait-for-timeout@1'), { horizon: 2 });
  assert.equal((await env.step({ type: 'wait' })).done, false);
  const result = await env.step({ type: 'wait' });
  assert.equal(result.record?.endReason, 'horizon');
  assert.equal(result.record?.verdict.success, false);
  assert.equal(result.record?.verdict.score, 0);
  assert.match(result.record?.verdict.why ?? '', /did not say done/);
});

test('a stop answer, where stop is offered, ends the episode; the page decides the reward', async () => {
  await env.reset(task('click-named-button@2'));
  const result = await env.step({ type: 'stop', answer: 'done' });
  assert.equal(result.record?.endReason, 'answer');
  assert.equal(result.record?.verdict.score, 0);
});

test('where stop is not offered (MiniWoB++ by default) an ANSWER is an invalid action and the episode goes on', async () => {
  const noStop = await miniwobEnv({ horizon: 5, offerStop: false });
  try {
    const obs = await noStop.env.reset(noStop.task('click-named-button@2'));
    const answered = await noStop.env.step('Thought: done.\nAction: ANSWER [done]');
    assert.equal(answered.done, false);
    assert.equal(answered.action.type, 'none');
    assert.match(answered.observation?.notes.join('\n') ?? '', /^Invalid action: this task offers no ANSWER/);
    const target = quoted(noStop.env.task?.intent ?? '');
    const clicked = await noStop.env.step({ type: 'click', elementId: nodeId(obs, 'button', target) });
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
  const noNav = await miniwobEnv({ horizon: 5, offerStop: false, offerNavigation: false });
  try {
    const obs = await noNav.env.reset(noNav.task('click-named-button@2'));
    const back = await noNav.env.step('Thought: back.\nAction: GoBack');
    assert.equal(back.done, false, 'the episode goes on (with navigation, GoBack leaves the task page)');
    assert.equal(back.action.type, 'none');
    assert.match(back.observation?.notes.join('\n') ?? '', /^Invalid action: this task offers no going back/);
    assert.equal(back.observation?.url, obs.url);
    const target = quoted(noNav.env.task?.intent ?? '');
    const clicked = await noNav.env.step({ type: 'click', elementId: nodeId(obs, 'button', target) });
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
  const short = await miniwobEnv(
    {
      horizon: 20,
      viewport: { width: 332, height: 214 },
    },
    { episodeMaxTimeMs: 1200 },
  );
  try {
    await short.env.reset(short.task('wait-for-timeout@1'));
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
