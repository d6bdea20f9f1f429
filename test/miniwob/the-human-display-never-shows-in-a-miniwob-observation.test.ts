// BrowserGym's remove_human_display on tti's stand-in pages, through the real browser env: the
// display a person watches (last reward, the last 10 average, time left, episodes done) and the
// instruction never reach an observation, while the page's own code, which writes into them, still
// runs (the utterance is read, episodes end and score). Without the removal the display shows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BrowserEnv } from '../../src/envs/index.js';
import { MINIWOB_VIEWPORT, type MiniwobServer } from '../../src/suites/miniwob/index.js';
import { HUMAN_DISPLAY, humanDisplayShown, miniwobEnv } from './helpers.js';
import { PageDriver, STANDIN_ORACLES } from './standin-oracles.js';

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof miniwobEnv>>['task'];

before(async () => {
  ({ env, server, task } = await miniwobEnv({
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
  for (const name of Object.keys(STANDIN_ORACLES)) {
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
  const first = await env.reset(task('login-form@4'));
  const d = new PageDriver(env, first, env.task?.intent ?? '', MINIWOB_VIEWPORT);
  await STANDIN_ORACLES['login-form']!(d);
  assert.equal(d.observations.length, 3, 'a username, a password, then Login');
  for (const obs of d.observations) assert.deepEqual(humanDisplayShown(obs), [], obs.text);
  assert.equal(d.result?.record?.endReason, 'task_done');
  assert.ok((d.result?.record?.verdict.score ?? 0) > 0, d.result?.record?.verdict.why);
});

test('with remove_human_display off the display and the instruction show (what the removal hides)', async () => {
  const {
    env: plain,
    server: own,
    task: ownTask,
  } = await miniwobEnv(
    {
      viewport: MINIWOB_VIEWPORT,
    },
    { removeHumanDisplay: false },
  );
  try {
    const obs = await plain.reset(ownTask('click-named-button@2'));
    assert.deepEqual(humanDisplayShown(obs), HUMAN_DISPLAY, obs.text);
    assert.ok(obs.text.includes(plain.task?.intent ?? '?'), obs.text);
  } finally {
    await plain.close();
    await own.close();
  }
});
