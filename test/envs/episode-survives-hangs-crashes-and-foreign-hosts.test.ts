import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BrowserEnv, EpisodeSetupError, originsOf } from '../../src/envs/index.js';
import { page, serve, type TestServer } from './support/server.js';
import { webarenaTask } from './support/tasks.js';

let server: TestServer;
let other: TestServer;
let env: BrowserEnv;
before(async () => {
  server = await serve({
    '/ok': page('Fine', '<h1>Fine</h1>'),
    '/hang': page('Hang', '<button onclick="while (true) {}">Freeze</button>'),
    '/never': () => {
      // never answers
    },
  });
  other = await serve({ '/pic': (_q, res) => res.writeHead(200, { 'content-type': 'image/gif' }).end() });
  env = await BrowserEnv.launch({ actionTimeoutMs: 2000, allowedOrigins: [] });
});
after(async () => {
  await env.close();
  await server.close();
  await other.close();
});

test('a page that hangs ends the episode with a recorded error, and the next episode runs', async () => {
  const obs = await env.reset(webarenaTask(`${server.origin}/hang`));
  const freeze = obs.nodes.find((n) => n.role === 'button')!.id;
  const t0 = Date.now();
  const r = await env.step(`\`\`\`click [${freeze}]\`\`\``);
  assert.ok(Date.now() - t0 < 6000);
  assert.equal(r.done, true);
  assert.equal(r.record!.endReason, 'action_timeout');
  assert.match(r.record!.error!, /took longer than 2000 ms/);
  assert.equal(r.record!.verdict.status, 'error');
  assert.equal(r.record!.verdict.score, 0);

  const next = await env.reset(webarenaTask(`${server.origin}/ok`));
  assert.match(next.tree, /heading 'Fine'/);
  const done = await env.step('```stop [yes]```');
  assert.equal(done.record!.verdict.score, 1);
});

test('a crashed tab ends the episode with a recorded error, and the next episode runs', async () => {
  await env.reset(webarenaTask(`${server.origin}/ok`));
  const r = await env.step('```goto [chrome://crash]```');
  assert.equal(r.done, true);
  assert.equal(r.record!.endReason, 'crash');
  assert.match(r.record!.error!, /crashed/);
  const next = await env.reset(webarenaTask(`${server.origin}/ok`));
  assert.match(next.tree, /heading 'Fine'/);
  await env.abandon();
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
    const obs = await own.reset(webarenaTask(`${server.origin}/ok`));
    assert.match(obs.tree, /heading 'Fine'/);
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
    const r1 = await guarded.step(`\`\`\`goto [${other.origin}/pic]\`\`\``);
    assert.match(r1.observation!.notes.join(' '), /failed: .*ERR_BLOCKED_BY_CLIENT/);
    const r2 = await guarded.step('```stop [yes]```');
    assert.deepEqual(r2.record!.blockedRequests, [`${other.origin}/pic`]);
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
