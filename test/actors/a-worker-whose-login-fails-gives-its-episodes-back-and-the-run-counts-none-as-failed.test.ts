// A run of two env workers on MiniArena whose tasks start on the shop's cart (a page that needs a
// login). Midway, env-0's login is broken (its storage state's session altered: the shop refuses
// it and sends the cart to the sign-in form). env-0 is then unhealthy, says why (a failed login)
// in status, and gives the episode back, for env-1: no episode result comes from a failed login,
// so it is no failed episode. Once the login is made good again env-0 is back, without a restart,
// and the iteration's episodes are all done, each counted once, by the worker that ran it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { renderStatusTable } from '../../src/cli/console-view.js';
import type { StatusSnapshot } from '../../src/protocol/index.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const env = (s: StatusSnapshot, id: string) => s.workers.find((w) => w.id === id)!;
const ROLLOUT = 16;

test('a worker whose login fails is unhealthy, gives its episode back, and the run counts none as failed', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  // any answer solves these; each starts on the cart, which only a logged-in shopper sees
  const file = writeAnyAnswerTasks(run.runDir);
  const tasks = (JSON.parse(readFileSync(file, 'utf8')) as { start_url: string }[]).map((task) => ({
    ...task,
    start_url: '__SHOPPING__/cart',
  }));
  writeFileSync(file, JSON.stringify(tasks));
  await run.startDetached([...tinyRun(file, 2), 'workers.env=2', `rollout_size=${ROLLOUT}`]);
  const running = await run.waitFor(
    (s) => (env(s, 'env-0').counters.episodes ?? 0) >= 1,
    120_000,
    'env-0 runs an episode',
  );
  // (a loaded machine may have restarted a worker slow to register: counted from here)
  const restarts = env(running, 'env-0').restarts;

  const login = path.join(run.runDir, 'auth', 'env-0', '.auth', 'shopping_state.json');
  const good = readFileSync(login, 'utf8');
  const state = JSON.parse(good) as { cookies: { value: string }[] };
  for (const c of state.cookies) c.value = `${c.value.slice(0, -2)}xx`;
  writeFileSync(login, JSON.stringify(state));

  const down = await run.waitFor((s) => env(s, 'env-0').state === 'unhealthy', 60_000, 'env-0 unhealthy');
  assert.match(
    env(down, 'env-0').labels.host ?? '',
    /^unhealthy since \S+: task \d+: login failed: .*sign-in page/,
  );
  assert.equal(env(down, 'env-0').restarts, restarts, 'a failed login is not a crash');
  assert.match(
    renderStatusTable(down, { iterations: 2 }),
    /hosts\s+1 of 2 answering; env-0: unhealthy .*login failed/,
  );
  const gaveBack = await run.waitFor(
    (s) => (env(s, 'env-0').counters.givenBack ?? 0) >= 1,
    30_000,
    'env-0 gives its episode back',
  );
  assert.ok((env(gaveBack, 'env-0').counters.loginFailures ?? 0) >= 1);

  // the login made good again (WebArena's auto_login rerun, say): env-0 is back
  writeFileSync(login, good);
  const back = await run.waitFor(
    (s) => env(s, 'env-0').state === 'ready' && env(s, 'env-0').labels.host === 'ok',
    90_000,
    'env-0 healthy again',
  );
  const mineBack = env(back, 'env-0').counters.episodes ?? 0;
  // the iteration's episodes all done, env-0 among those running them again; each counted once,
  // by the worker that ran it: the one given back by env-1, none by env-0 for its failed login
  // (the heartbeats that carry the workers' counts trail the results: waited for, not read once)
  const ran = (s: StatusSnapshot) =>
    (env(s, 'env-0').counters.episodes ?? 0) + (env(s, 'env-1').counters.episodes ?? 0);
  const done = await run.waitFor(
    (s) =>
      (env(s, 'env-0').counters.episodes ?? 0) > mineBack &&
      s.episodes.done >= ROLLOUT &&
      ran(s) === s.episodes.done,
    240_000,
    "env-0 runs episodes again and the iteration's episodes are done, each counted once",
  );
  assert.equal(env(done, 'env-0').restarts, restarts);
  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);
  const logOf = (worker: string) =>
    readFileSync(path.join(run.runDir, 'logs', `${worker}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { message: string }).message);
  assert.ok(logOf('env-0').some((m) => /login failed: .*takes no tasks until the login holds again/.test(m)));
  // a failed login is not an episode that failed: env-0 reported no episode of it
  assert.ok(!logOf('env-0').some((m) => /^episode \S+ failed/.test(m)), 'no episode failure was logged');
});
