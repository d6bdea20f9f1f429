// The reset path as an env worker runs it (src/actors/roles/site-reset.ts), against MiniArena
// served by `tti-run arena serve` in its own process, over real HTTP, through the env-ctrl client
// (src/suites/env-ctrl.ts): after a task that changed a site (program_html), that site goes back to
// its first state through POST /reset and GET /health, and the reset and its time are counted; a
// read-only task resets nothing; a reset that fails makes the host unhealthy, and the worker is well
// again only once a retried reset goes through. A slow reset (env-ctrl says 503 while the site
// restarts) is waited out, within the deadline, and one past it is an error naming the site.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { test } from 'node:test';
import { HostHealth } from '../../src/actors/roles/host-health.js';
import { resetChangedSites } from '../../src/actors/roles/site-reset.js';
import { startMiniArenaHost } from '../../src/arena/index.js';
import { resolveConfig } from '../../src/config/index.js';
import type { WebArenaEval } from '../../src/envs/index.js';
import { resetSite, resetSites, suiteWorkerContext } from '../../src/suites/index.js';
import { webArenaHost } from '../../src/suites/webarena/index.js';
import { cliEntry, projectRoot } from '../../src/util/index.js';

/** `tti-run arena serve --port 0`: resolves with its origin and the shop's env-ctrl once it is up. */
function serveArena(): Promise<{ child: ChildProcess; origin: string; envCtrl: string }> {
  const child = spawn(process.execPath, [cliEntry, 'arena', 'serve', '--port', '0'], { cwd: projectRoot });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`arena serve exited with ${code}: ${out}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const origin = /MiniArena \(seed \d+\) at (http:\/\/[^\s/]+)\//.exec(out)?.[1];
      const envCtrl = /env-ctrl \(shopping\): (\S+)/.exec(out)?.[1];
      if (origin !== undefined && envCtrl !== undefined) resolve({ child, origin, envCtrl });
    });
  });
}

const evalOf = (type: 'program_html' | 'string_match') =>
  ({
    eval_types: [type],
    reference_answers: type === 'string_match' ? { exact_match: 'x' } : null,
    reference_url: null,
    program_html: type === 'program_html' ? [] : null,
  }) as WebArenaEval;

test('a site-changing task is reset through env-ctrl; a failed reset makes its host unhealthy until one goes through', async (t) => {
  const { child, origin, envCtrl } = await serveArena();
  t.after(() => child.kill('SIGTERM'));

  // A change to the shop: a review, which a product page shows.
  const home = await (await fetch(`${origin}/shop/`)).text();
  const slug = /\/shop\/product\/([a-z0-9-]+)/.exec(home)?.[1];
  assert.ok(slug, 'the shop lists a product');
  const page = () => fetch(`${origin}/shop/product/${slug}`).then((r) => r.text());
  const review = async (title: string) => {
    const r = await fetch(`${origin}/shop/product/${slug}/review`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ rating: '4', nickname: 'tester', title, body: 'fine' }).toString(),
      redirect: 'manual',
    });
    await r.arrayBuffer();
    assert.equal(r.status, 303);
  };

  const endpoints: Record<string, string> = { shopping: envCtrl };
  const host = {
    resetSites: (sites: readonly string[]) => resetSites(sites, endpoints, 5000),
  };
  const ctx = { counters: {} as Record<string, number>, log: { info: () => {}, warn: () => {} } };
  const labels: string[] = [];
  const health = new HostHealth(
    () => [origin],
    (down, label) => labels.push(`${down ? 'down' : 'up'} ${label}`),
    () => {},
  );
  const changer = { id: 'change-1', sites: ['shopping'], eval: evalOf('program_html') };
  const reader = { id: 'read-1', sites: ['shopping'], eval: evalOf('string_match') };

  await review('Made by the changing task');
  assert.match(await page(), /Made by the changing task/);
  await resetChangedSites(host, reader, health, ctx);
  assert.equal(ctx.counters.resets, undefined, 'a read-only task resets nothing');
  assert.match(await page(), /Made by the changing task/);
  await resetChangedSites(host, changer, health, ctx);
  assert.equal(ctx.counters.resets, 1);
  assert.ok((ctx.counters.resetMs ?? -1) >= 0);
  assert.doesNotMatch(await page(), /Made by the changing task/, 'the site is back in its first state');
  assert.ok(health.healthy);

  // env-ctrl refuses (a wrong endpoint: 404 with success false): unhealthy, and the probe alone,
  // which the host answers, does not make it well again.
  endpoints.shopping = envCtrl.replace(/\/shopping$/, '/nowhere');
  await review('Left by a task whose reset failed');
  await resetChangedSites(host, changer, health, ctx);
  assert.equal(health.healthy, false);
  assert.equal(ctx.counters.resetFailures, 1);
  assert.match(labels.at(-1) ?? '', /^down unhealthy since .*: reset of shopping failed: .*answered 404/);
  assert.equal(await health.check(), false, 'the retried reset fails again');
  assert.equal(ctx.counters.resetFailures, 2);
  assert.match(await page(), /Left by a task whose reset failed/);
  endpoints.shopping = envCtrl;
  assert.equal(await health.check(), true, 'the retried reset goes through');
  assert.equal(ctx.counters.resets, 2);
  assert.equal(labels.at(-1), 'up ok');
  assert.doesNotMatch(await page(), /Left by a task whose reset failed/);

  // env-ctrl's process is gone: the reset fails with the cause.
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await assert.rejects(
    resetSite('shopping', envCtrl, 2000),
    /reset of shopping at .*\/reset failed: ECONNREFUSED/,
  );
});

test('a slow reset is waited out through /health, and one past its deadline names the site', async (t) => {
  const arena = await startMiniArenaHost({ envCtrlResetMs: 1500 });
  t.after(() => arena.close());
  const ms = await resetSite('reddit', arena.envCtrl.reddit, 10000);
  assert.ok(ms >= 1400, `the reset waited for the site to come back (${ms} ms)`);
  assert.equal(arena.envCtrlResets.reddit, 1);
  const health = await fetch(`${arena.envCtrl.reddit}/health`);
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), {
    success: true,
    message: 'reddit is healthy',
    details: { site: 'reddit' },
  });
  await assert.rejects(
    resetSite('gitlab', arena.envCtrl.gitlab, 600),
    /gitlab did not come back healthy within 600 ms of its reset \(.*\/health: 503: gitlab is restarting\)/,
  );
});

test('the WebArena suite’s host resets the sites env_ctrl names, and only where env_ctrl is set', async (t) => {
  const arena = await startMiniArenaHost();
  t.after(() => arena.close());
  const hostFor = (envCtrl: Record<string, string>) =>
    webArenaHost(
      suiteWorkerContext({
        config: resolveConfig({ webarena_host: 'localhost', env_ctrl: envCtrl }, 'test'),
        workerId: 'env-0',
        runDir: null,
        log: { info: () => {}, warn: () => {} },
      }),
      'webarena',
    );
  const host = await hostFor({ shopping: arena.envCtrl.shopping });
  assert.ok(host.resetSites);
  assert.deepEqual(await host.resetSites(['shopping', 'wikipedia']), ['shopping']);
  assert.deepEqual(
    arena.envCtrlResets,
    { shopping: 1, reddit: 0, gitlab: 0 },
    'a site without env-ctrl is left',
  );
  assert.equal((await hostFor({})).resetSites, undefined, 'no env_ctrl: nothing to reset with');
  assert.throws(
    () => resolveConfig({ env_ctrl: { shopping: 'not a url' } }, 'test.yaml'),
    /env_ctrl\.shopping/,
  );
});
