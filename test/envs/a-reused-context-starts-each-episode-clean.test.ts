import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BrowserEnv, type Observation, type Task } from '../../src/envs/index.js';
import { page, serve, type TestServer } from './support/server.js';
import { webarenaTask } from './support/tasks.js';

// /mark leaves traces of an episode in every place a page can keep them; /look shows what it sees.
const MARK = page(
  'Mark',
  `<h1>Marked</h1><a href="/look">Look</a>
<script>
  document.cookie = 'left=over; path=/';
  localStorage.setItem('left', 'over');
  sessionStorage.setItem('left', 'over');
</script>`,
);
const LOOK = page(
  'Look',
  `<h1 id="h">looking</h1>
<script>
  document.getElementById('h').textContent = [
    'cookie=' + (document.cookie || 'none'),
    'local=' + (localStorage.getItem('left') || 'none'),
    'session=' + (sessionStorage.getItem('left') || 'none'),
    'history=' + history.length,
  ].join(' ');
</script>`,
);

let server: TestServer;
let dir: string;
before(async () => {
  server = await serve({ '/mark': MARK, '/look': LOOK });
  dir = mkdtempSync(path.join(tmpdir(), 'tti-reuse-'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function heading(obs: Observation): string {
  return obs.nodes.find((n) => n.role === 'heading')?.name ?? '';
}

test('a reused context starts each episode clean: no cookie, storage, tab or history of the last one, the task login in place', async () => {
  const login = path.join(dir, 'state.json');
  const host = new URL(server.origin).hostname;
  writeFileSync(
    login,
    JSON.stringify({
      cookies: [
        {
          name: 'session',
          value: 'alice',
          domain: host,
          path: '/',
          expires: -1,
          httpOnly: false,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [],
    }),
  );
  const loggedIn = (url: string): Task => ({ ...webarenaTask(url), requireLogin: true, storageState: login });
  const env = await BrowserEnv.launch({
    reuseContext: true,
    allowedOrigins: [server.origin],
    actionFormat: 'tti',
  });
  try {
    // Episode 1 marks everything, opens a second tab and walks a page further.
    let obs = await env.reset(loggedIn(`${server.origin}/mark`));
    await env.step('Thought: open a tab.\nAction: Click [0]'); // an impossible action: a note, nothing else
    const look = obs.nodes.find((n) => n.role === 'link' && n.name === 'Look')!;
    obs = (await env.step(`Thought: go on.\nAction: Click [${look.id}]`)).observation!;
    assert.match(heading(obs), /cookie=.*left=over.* local=over session=over/);
    const end = await env.step('Thought: done.\nAction: ANSWER [yes]');
    assert.equal(end.done, true);

    // Episode 2, in the same tab: none of it is left, and the login cookie is there.
    obs = await env.reset(loggedIn(`${server.origin}/look`));
    // The page sees only about:blank before it, as in a new tab.
    assert.equal(heading(obs), 'cookie=session=alice local=none session=none history=2');
    // Back reaches about:blank (as in a new tab), not the last episode's pages.
    obs = (await env.step('Thought: back.\nAction: GoBack')).observation!;
    assert.equal(obs.url, 'about:blank');
    await env.step('Thought: done.\nAction: ANSWER [yes]');

    // A task without login gets no cookie at all.
    obs = await env.reset(webarenaTask(`${server.origin}/look`));
    assert.match(heading(obs), /^cookie=none local=none session=none/);
    await env.abandon();
    assert.deepEqual(env.contexts, { created: 1, reused: 2 });

    // An episode ended unscored (abandon: a search's rollout, a failed oracle) leaves its context
    // too, cleaned the same way: its marks do not reach the next.
    await env.reset(webarenaTask(`${server.origin}/mark`));
    await env.abandon();
    obs = await env.reset(webarenaTask(`${server.origin}/look`));
    assert.match(heading(obs), /^cookie=none local=none session=none/);
    await env.abandon();
    assert.deepEqual(env.contexts, { created: 1, reused: 4 });
  } finally {
    await env.close();
  }
});

test('Back from the start page goes where it goes in a new context, so an episode does not depend on which it got', async () => {
  /** Where Back leads from the start page in two episodes of one env: the second reused, or new, as asked. */
  const backFrom = async (reuseContext: boolean): Promise<string[]> => {
    const env = await BrowserEnv.launch({
      reuseContext,
      allowedOrigins: [server.origin],
      actionFormat: 'tti',
    });
    try {
      const urls: string[] = [];
      for (const start of ['/mark', '/look']) {
        await env.reset(webarenaTask(`${server.origin}${start}`));
        urls.push((await env.step('Thought: back.\nAction: GoBack')).observation!.url);
        await env.step('Thought: done.\nAction: ANSWER [yes]');
      }
      assert.deepEqual(env.contexts, reuseContext ? { created: 1, reused: 1 } : { created: 2, reused: 0 });
      return urls;
    } finally {
      await env.close();
    }
  };
  const reused = await backFrom(true);
  assert.deepEqual(reused, ['about:blank', 'about:blank']);
  assert.deepEqual(await backFrom(false), reused);
});
