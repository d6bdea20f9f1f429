import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page as TabPage } from 'playwright-core';
import { BrowserEnv, type EpisodeRecord, EpisodeSetupError, originsOf } from '../../src/envs/index.js';
import { page, serve, type TestServer } from './support/server.js';
import { webarenaTask } from './support/tasks.js';

let server: TestServer;
let other: TestServer;
let env: BrowserEnv;
let recordDir: string;
/** Short, so a hang ends quickly; long enough for a plain page on a busy 2-core machine. */
const ACTION_TIMEOUT_MS = 4000;
/** A hang must not hold a step or a reset for good; how soon it lets go is the timeout's (asserted by the
 * record's reason), so this bound is only generous, for a loaded machine. */
const HANG_RELEASED_MS = 60_000;

/** The record the env wrote to disk for the episode. */
function recorded(episodeId: string): EpisodeRecord {
  return JSON.parse(readFileSync(path.join(recordDir, episodeId, 'record.json'), 'utf8')) as EpisodeRecord;
}

/** A whole episode on /ok: a click that navigates, then an answer that scores 1. */
async function fullEpisode(e: BrowserEnv): Promise<void> {
  const obs = await e.reset(webarenaTask(`${server.origin}/ok`));
  assert.match(obs.tree, /heading 'Fine'/);
  const link = obs.nodes.find((n) => n.role === 'link' && n.name === 'Next')!.id;
  const r = await e.step(`\`\`\`click [${link}]\`\`\``);
  assert.equal(r.done, false, r.record?.error ?? '');
  assert.deepEqual(r.observation!.notes, []);
  assert.match(r.observation!.tree, /heading 'Next page'/);
  const done = await e.step('```stop [yes]```');
  assert.equal(done.record!.endReason, 'answer');
  assert.equal(done.record!.verdict.score, 1);
}

before(async () => {
  recordDir = mkdtempSync(path.join(tmpdir(), 'tti-env-records-'));
  server = await serve({
    '/ok': page('Fine', '<h1>Fine</h1><a href="/next">Next</a>'),
    '/next': page('Next', '<h1>Next page</h1>'),
    '/hang': page('Hang', '<button onclick="while (true) {}">Freeze</button>'),
    '/hang-on-load': page('Hang on load', '<h1>Never</h1><script>while (true) {}</script>'),
    '/never': () => {
      // never answers
    },
  });
  other = await serve({ '/pic': (_q, res) => res.writeHead(200, { 'content-type': 'image/gif' }).end() });
  env = await BrowserEnv.launch({ actionTimeoutMs: ACTION_TIMEOUT_MS, allowedOrigins: [], recordDir });
});
after(async () => {
  await env.close();
  await server.close();
  await other.close();
  rmSync(recordDir, { recursive: true, force: true });
});

test('a page that hangs ends the episode with a recorded error, and the next episode runs', async () => {
  const obs = await env.reset(webarenaTask(`${server.origin}/hang`), { episodeId: 'hang' });
  const freeze = obs.nodes.find((n) => n.role === 'button')!.id;
  const t0 = Date.now();
  const r = await env.step(`\`\`\`click [${freeze}]\`\`\``);
  assert.ok(Date.now() - t0 < HANG_RELEASED_MS, `the hang held the step for ${Date.now() - t0} ms`);
  assert.equal(r.done, true);
  assert.equal(r.record!.endReason, 'action_timeout');
  assert.match(r.record!.error!, new RegExp(`took longer than ${ACTION_TIMEOUT_MS} ms`));
  assert.equal(r.record!.verdict.status, 'error');
  assert.equal(r.record!.verdict.score, 0);
  // The record on disk says the same.
  const onDisk = recorded('hang');
  assert.equal(onDisk.endReason, 'action_timeout');
  assert.match(onDisk.error!, new RegExp(`took longer than ${ACTION_TIMEOUT_MS} ms`));
  assert.equal(onDisk.steps.length, 1);
  assert.equal(onDisk.steps[0]!.actionText, `click [${freeze}]`);

  await fullEpisode(env);
});

/**
 * Crashes the episode's tab as a renderer crash would (CDP Page.crash); the policy's `goto` can no
 * longer open chrome://crash (chrome: is refused during an episode), so the test reaches in.
 */
async function crashTab(of: BrowserEnv): Promise<void> {
  const tab = (of as unknown as { episode: { session: { current: TabPage } } }).episode.session.current;
  const cdp = await tab.context().newCDPSession(tab);
  void cdp.send('Page.crash').catch(() => undefined);
  for (let i = 0; i < 100 && !tab.isClosed(); i++) {
    const alive = await Promise.race([
      tab.evaluate(() => true).catch(() => false),
      sleep(100).then(() => false),
    ]);
    if (!alive) break;
    await sleep(20);
  }
}

test('a crashed tab ends the episode with a recorded error, and the next episode runs', async () => {
  await env.reset(webarenaTask(`${server.origin}/ok`), { episodeId: 'crash' });
  await crashTab(env);
  const r = await env.step('```scroll [down]```');
  assert.equal(r.done, true);
  assert.equal(r.record!.endReason, 'crash');
  assert.match(r.record!.error!, /crashed/);
  assert.equal(r.record!.verdict.status, 'error');
  const onDisk = recorded('crash');
  assert.equal(onDisk.endReason, 'crash');
  assert.match(onDisk.error!, /crashed/);

  await fullEpisode(env);
});

test('start pages that hang or crash are setup errors naming the task, and the next episode runs', async () => {
  const t0 = Date.now();
  await assert.rejects(env.reset(webarenaTask(`${server.origin}/hang-on-load`)), (e: unknown) => {
    return e instanceof EpisodeSetupError && /^task test: could not start the episode: /.test(e.message);
  });
  assert.ok(Date.now() - t0 < HANG_RELEASED_MS, `the hung start page held reset for ${Date.now() - t0} ms`);
  await fullEpisode(env);

  await assert.rejects(env.reset(webarenaTask('chrome://crash')), EpisodeSetupError);
  await fullEpisode(env);
});

test('hangs and crashes in a row: the same env keeps running episodes', async () => {
  for (const bad of ['hang', 'crash']) {
    const obs = await env.reset(webarenaTask(`${server.origin}/${bad === 'hang' ? 'hang' : 'ok'}`));
    const r =
      bad === 'hang'
        ? await env.step(`\`\`\`click [${obs.nodes.find((n) => n.role === 'button')!.id}]\`\`\``)
        : await crashTab(env).then(() => env.step('```scroll [down]```'));
    assert.equal(r.done, true);
    assert.equal(r.record!.endReason, bad === 'hang' ? 'action_timeout' : 'crash');
  }
  await fullEpisode(env);
});

test('a server that never answers is a failed action with a note, not the end of the episode', async () => {
  await env.reset(webarenaTask(`${server.origin}/ok`));
  const r = await env.step(`\`\`\`goto [${server.origin}/never]\`\`\``);
  assert.equal(r.done, false, r.record?.error ?? '');
  assert.match(r.observation!.notes.join(' '), /failed: .*Timeout/);
  const s = await env.step('```stop [yes]```');
  assert.equal(s.record!.verdict.score, 1);
});

test('when Chromium itself dies, the next reset launches another', async () => {
  const own = await BrowserEnv.launch({});
  try {
    await own.reset(webarenaTask(`${server.origin}/ok`));
    await (own as unknown as { browser: { close(): Promise<void> } }).browser.close();
    await fullEpisode(own);
  } finally {
    await own.close();
  }
});

test('the episode timeout ends a slow episode', async () => {
  const short = await BrowserEnv.launch({ episodeTimeoutMs: 300 });
  try {
    await short.reset(webarenaTask(`${server.origin}/ok`));
    await new Promise((r) => setTimeout(r, 400));
    const r = await short.step('```scroll [down]```');
    assert.equal(r.record!.endReason, 'episode_timeout');
    assert.equal(r.record!.verdict.status, 'error');
  } finally {
    await short.close();
  }
});

test('WebArena tasks may not leave the allowed hosts: foreign requests are blocked and listed', async () => {
  const guarded = await BrowserEnv.launch({
    allowedOrigins: originsOf({ shopping: `${server.origin}/shop/` }),
  });
  try {
    const obs = await guarded.reset(webarenaTask(`${server.origin}/ok`));
    assert.match(obs.tree, /Fine/);
    // the refusal is the page the agent sees, and nothing of the other site
    const r1 = await guarded.step(`\`\`\`goto [${other.origin}/pic]\`\`\``);
    assert.match(r1.observation!.tree, /Blocked: .* is outside the sites of this task/);
    const r2 = await guarded.step('```stop [yes]```');
    // (Chromium may ask the refused origin for its favicon too: refused and listed the same way)
    assert.deepEqual(
      r2.record!.blockedRequests.filter((u) => !u.endsWith('/favicon.ico')),
      [`${other.origin}/pic`],
    );
  } finally {
    await guarded.close();
  }
});

test('an unreachable start URL or a missing host is a setup error naming the task', async () => {
  await assert.rejects(env.reset(webarenaTask('__SHOPPING__/cart')), (e: unknown) => {
    return e instanceof EpisodeSetupError && /task test: no host configured for __SHOPPING__/.test(e.message);
  });
  await assert.rejects(env.reset(webarenaTask('http://127.0.0.1:1/nothing')), EpisodeSetupError);
  const t = webarenaTask(`${server.origin}/ok`);
  t.requireLogin = true;
  t.storageState = '/nonexistent/.auth/shopping_state.json';
  await assert.rejects(
    env.reset(t),
    /storage state \/nonexistent\/.auth\/shopping_state.json does not exist/,
  );
});
