// During an episode the browser (real Chromium) refuses what would show the machine's files or the
// browser's own pages: a file: navigation the driver asks for (a start URL) is aborted and reported
// on the open web and refused before it is asked when confined (a confined context intercepts
// nothing), a web page's attempts to reach file: (location, a frame, a fetch, a redirect) get nothing
// of the file either way, a chrome: page is left for a blank one, and the policy's `goto` to file:
// or javascript: is refused.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { executeAction, ImpossibleActionError } from '../../src/envs/actions/execute.js';
import { launchBrowser, newEpisodeContext } from '../../src/envs/browser/launch.js';
import { EpisodeSession } from '../../src/envs/browser/session.js';
import { BrowserEnv, EpisodeSetupError } from '../../src/envs/index.js';
import { webarenaTask } from './support/tasks.js';

const SECRET = 'the-run-token-0123456789';
let browser: Browser;
let server: Server;
let origin = '';
let secretFile = '';
let dir = '';

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tti-nav-'));
  secretFile = path.join(dir, 'token');
  writeFileSync(secretFile, SECRET);
  const fileUrl = `file://${secretFile}`;
  server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/jump') res.end(`<script>location.href = ${JSON.stringify(fileUrl)}</script>`);
    else if (req.url === '/frame') res.end(`<iframe src="${fileUrl}"></iframe>`);
    else if (req.url === '/fetch')
      res.end(
        `<script>fetch(${JSON.stringify(fileUrl)}).then(r => r.text()).then(t => document.title = t, e => document.title = 'failed')</script>`,
      );
    else if (req.url === '/redirect') {
      res.statusCode = 302;
      res.setHeader('location', fileUrl);
      res.end();
    } else res.end('<p>a site</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The page's HTML once it stops navigating (Chromium's error page loads after a blocked one). */
async function settledContent(page: Page): Promise<string> {
  for (let i = 0; ; i++) {
    try {
      return await page.content();
    } catch (error) {
      if (i >= 50) throw error;
      await sleep(100);
    }
  }
}

test('a file: start URL is aborted and reported (the open web: every request routed)', async () => {
  const blocked: string[] = [];
  const context = await newEpisodeContext(browser, { onBlocked: (url) => blocked.push(url) });
  try {
    const page = await context.newPage();
    await assert.rejects(page.goto(`file://${secretFile}`), /ERR_BLOCKED_BY_CLIENT/);
    assert.ok(!(await settledContent(page)).includes(SECRET));
    assert.ok(!page.url().startsWith('file:'));
    assert.deepEqual(blocked, [`file://${secretFile}`]);
  } finally {
    await context.close();
  }
});

test('a file: start URL of an episode confined to its hosts is refused before the browser is asked', async () => {
  const env = await BrowserEnv.launch({ allowedOrigins: [origin] });
  try {
    const task = webarenaTask(`file://${secretFile}`);
    await assert.rejects(
      env.reset(task),
      (e: unknown) => e instanceof EpisodeSetupError && /file: URLs are refused/.test(e.message),
    );
    // the env goes on: the next episode starts on its site
    const ok = webarenaTask(`${origin}/`);
    assert.match((await env.reset(ok)).tree, /a site/);
  } finally {
    await env.close();
  }
});

for (const confined of [false, true]) {
  test(`a web page's own ways to a file: URL get nothing of the file (${confined ? 'confined to its hosts' : 'the open web'})`, async () => {
    const context = await newEpisodeContext(browser, {
      ...(confined ? { allowedOrigins: [origin] } : {}),
      onBlocked: () => undefined,
    });
    try {
      const page = await context.newPage();
      for (const route of ['/jump', '/frame', '/fetch', '/redirect']) {
        await page.goto(`${origin}${route}`).catch(() => undefined);
        await sleep(300);
        assert.ok(!page.url().startsWith('file:'), `${route}: ${page.url()}`);
        for (const frame of page.frames()) {
          // a refused frame never finishes loading: it shows nothing
          const text = await Promise.race([frame.content().catch(() => ''), sleep(2000).then(() => '')]);
          assert.ok(!text.includes(SECRET), `${route} showed the file`);
        }
        assert.ok(!(await page.title()).includes(SECRET));
      }
    } finally {
      await context.close();
    }
  });
}

test('a chrome: page is left for a blank one and reported', async () => {
  const blocked: string[] = [];
  const context = await newEpisodeContext(browser, { onBlocked: (url) => blocked.push(url) });
  try {
    const page = await context.newPage();
    await page.goto('chrome://version').catch(() => undefined);
    for (let i = 0; i < 50 && page.url() !== 'about:blank'; i++) await sleep(50);
    assert.equal(page.url(), 'about:blank');
    assert.ok(blocked.some((url) => url.startsWith('chrome://version')));
  } finally {
    await context.close();
  }
});

test("the policy's goto to file:, javascript: or data: is refused before the browser is asked", async () => {
  const context = await newEpisodeContext(browser, {});
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    const session = new EpisodeSession(context, page);
    for (const url of [`file://${secretFile}`, 'javascript:document.title="x"', 'data:text/html,<p>x</p>']) {
      await assert.rejects(
        executeAction(session, new Map(), { type: 'goto', url }, { timeoutMs: 5000 }),
        (error: unknown) =>
          error instanceof ImpossibleActionError && /goto refused: \w+: URLs are refused/.test(error.message),
      );
      assert.equal(page.url(), `${origin}/`);
    }
    await executeAction(session, new Map(), { type: 'goto', url: `${origin}/other` }, { timeoutMs: 5000 });
    assert.equal(page.url(), `${origin}/other`);
  } finally {
    await context.close();
  }
});
