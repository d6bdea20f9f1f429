// A login that fails is told apart from a failed episode: on MiniArena's real shop, in real
// Chromium, a storage state whose session the site refuses sends the start page to the sign-in
// form, and the episode does not start (LoginFailedError, naming the task and where it landed).
// The env worker's handling (src/actors/roles/login-failure.ts) counts it, marks the host
// unhealthy, as an unreachable host is, and the host is well again only once the login, retried,
// holds. A missing storage state is a failed login too; a start page that is itself a sign-in page,
// or any other error, is not.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { HostHealth } from '../../src/actors/roles/host-health.js';
import { loginFailed } from '../../src/actors/roles/login-failure.js';
import { type MiniArenaHost, startMiniArenaHost } from '../../src/arena/index.js';
import {
  BrowserEnv,
  EpisodeSetupError,
  isLoginFailure,
  LoginFailedError,
  type Task,
} from '../../src/envs/index.js';
import { makePageTask } from '../../src/suites/index.js';

let arena: MiniArenaHost;
let env: BrowserEnv;
let dir: string;

before(async () => {
  arena = await startMiniArenaHost();
  env = await BrowserEnv.launch({ allowedOrigins: [arena.origin] });
  dir = mkdtempSync(path.join(tmpdir(), 'tti-login-'));
});
after(async () => {
  await env.close();
  await arena.close();
});

/** A task on the shop's cart (a page that needs a login), logging in with `storageState`. */
function cartTask(storageState: string, page = 'cart'): Task {
  return {
    ...makePageTask({
      id: `shop-${page}`,
      intent: 'What is in my cart?',
      startUrls: [`${arena.placeholders.__SHOPPING__}/${page}`],
      source: 'test',
    }),
    confined: true,
    requireLogin: true,
    storageState,
  };
}

/** The shop's login with its session cookie altered: the site refuses it. */
function refusedLogin(file: string): void {
  const state = arena.storageState(['shopping']);
  for (const c of state.cookies) c.value = `${c.value.slice(0, -2)}xx`;
  writeFileSync(file, JSON.stringify(state));
}

test('a refused login stops the start, marks the host unhealthy until the login holds again', async () => {
  const file = path.join(dir, 'shopping_state.json');
  refusedLogin(file);
  const task = cartTask(file);
  const error = await env.reset(task).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof LoginFailedError, `a login failure, not ${String(error)}`);
  assert.ok(error instanceof EpisodeSetupError, 'still an episode that did not start');
  assert.match(
    error.message,
    /^task shop-cart: login failed: opening http:\/\/\S+\/shop\/cart with its login led to a sign-in page \(\S+\/shop\/login\?next=/,
  );

  const labels: string[] = [];
  const health = new HostHealth(
    () => [arena.origin],
    (down, label) => labels.push(`${down ? 'down' : 'up'} ${label}`),
    () => {},
  );
  const ctx = { counters: {} as Record<string, number>, log: { warn: () => {} } };
  // another error is an episode's failure, left to the usual retry
  assert.equal(
    loginFailed(
      new Error('the page hung'),
      () => assert.fail('the task is asked only for a failed login'),
      env,
      health,
      ctx,
    ),
    null,
  );
  assert.equal(health.healthy, true);

  const reason = loginFailed(error, () => task, env, health, ctx);
  assert.equal(reason, error.message);
  assert.equal(ctx.counters.loginFailures, 1);
  assert.equal(health.healthy, false);
  assert.match(labels.at(-1)!, /^down unhealthy since \S+: task shop-cart: login failed: /);
  // the site answers, but the repair is the login: still refused, still down
  assert.equal(await health.check(), false);
  assert.equal(health.healthy, false);

  // the login is made good (WebArena's auto_login run again, say): the retried login holds
  writeFileSync(file, JSON.stringify(arena.storageState(['shopping'])));
  assert.equal(await health.check(), true);
  assert.equal(labels.at(-1), 'up ok');
  const obs = await env.reset(task);
  assert.match(obs.url, /\/shop\/cart$/);
  await env.abandon();
});

test('a missing storage state is a failed login; a start page that is a sign-in page is not', async () => {
  const missing = await env.reset(cartTask(path.join(dir, 'nope', 'shopping_state.json'))).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(isLoginFailure(missing), String(missing));
  assert.match((missing as Error).message, /login failed: storage state \S+nope\S+ does not exist/);

  // asked for the sign-in form, the episode starts on it: that is no failed login
  const file = path.join(dir, 'refused_state.json');
  refusedLogin(file);
  const obs = await env.reset(cartTask(file, 'login'));
  assert.match(obs.url, /\/shop\/login$/);
  await env.abandon();
});
