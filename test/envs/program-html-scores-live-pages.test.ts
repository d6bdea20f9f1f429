import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BrowserEnv, type EpisodeRecord, loadTaskFile, type Task } from '../../src/envs/index.js';
import { projectRoot } from '../../src/util/paths.js';
import { page, serve, type TestServer } from './support/server.js';
import { webarenaTask } from './support/tasks.js';

/** What the served sites show; each test sets the good or the bad final state. */
const state = { role: 'Guest', cart: '', post: '', discount: '20', cookie: '' };

const PROMO = () =>
  page(
    'Edit Cart Price Rule',
    `<input name="name" value="Spring Sale">
<select name="website_ids"><option selected>Main Website</option><option>Other</option></select>
<select name="customer_group_ids"><option>NOT LOGGED IN</option><option selected>General</option></select>
<div data-index="actions"><div class="admin__collapsible-title" onclick="
  this.parentNode.innerHTML = '<select name=simple_action><option value=by_percent selected>Percent</option></select>' +
    '<input name=discount_amount value=${state.discount}>';
">Actions</div></div>`,
  );

let server: TestServer;
let env: BrowserEnv;
let tasks: Task[];
before(async () => {
  server = await serve({
    '/': page('Home', '<h1>Home</h1>'),
    '/admin': page('Dashboard', '<h1>Dashboard</h1>'),
    '/admin/sales_rule/promo_quote/edit/id/5/': (_q, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(PROMO()),
    '/checkout/cart': (req, res) => {
      state.cookie = req.headers.cookie ?? '';
      res.writeHead(200, { 'content-type': 'text/html' }).end(page('Cart', state.cart));
    },
    '/byteblaze/dotfiles/-/project_members': (_q, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        page(
          'Members',
          `<table><tr><td data-label="Account"><span class="gl-avatar-labeled-sublabel">@byteblaze</span></td><td class="col-max-role"><span>Owner</span></td></tr>
<tr><td data-label="Account"><span class="gl-avatar-labeled-sublabel">@abisubramanya27</span></td><td class="col-max-role"><span>${state.role}</span></td></tr></table>`,
        ),
      ),
    '/f/MachineLearning/123/': (_q, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(page('Post', `<div class="submission__inner">${state.post}</div>`)),
    '/f/MachineLearning/123/what-is-sota/comment/9': page('Comment', '<p>a comment on the post</p>'),
    '/f/technology/77/other': page('Other', '<p>elsewhere</p>'),
  });
  env = await BrowserEnv.launch({});
  const o = server.origin;
  // WebArena's .auth/<site>_state.json files are Playwright storage states; ours carry a cookie.
  const authDir = mkdtempSync(path.join(tmpdir(), 'tti-auth-'));
  mkdirSync(path.join(authDir, '.auth'));
  for (const site of ['shopping', 'shopping_admin', 'gitlab', 'reddit']) {
    const cookie = { name: 'session', value: `${site}-user`, domain: '127.0.0.1', path: '/', expires: -1 };
    const stateJson = {
      cookies: [{ ...cookie, httpOnly: false, secure: false, sameSite: 'Lax' }],
      origins: [],
    };
    writeFileSync(path.join(authDir, '.auth', `${site}_state.json`), JSON.stringify(stateJson));
  }
  tasks = loadTaskFile(path.resolve(projectRoot, '../shared/data/webarena/test.raw.json'), {
    hosts: {
      shopping: o,
      shopping_admin: `${o}/admin`,
      gitlab: o,
      reddit: o,
      map: o,
      wikipedia: o,
      homepage: o,
    },
    authDir,
  });
});
after(async () => {
  await env.close();
  await server.close();
});

const task = (id: number) => tasks.find((t) => t.id === String(id))!;

/** Runs an episode that goes to `finalUrl` and stops; returns the scored record. */
async function episodeEndingAt(t: Task, finalUrl: string, answer = ''): Promise<EpisodeRecord> {
  await env.reset(t);
  const r1 = await env.step(`\`\`\`goto [${server.origin}${finalUrl}]\`\`\``);
  assert.deepEqual(r1.observation!.notes, []);
  const r2 = await env.step(`\`\`\`stop [${answer}]\`\`\``);
  return r2.record!;
}

test('real task 604: url_match |OR| and program_html with func:reddit_get_post_url', async () => {
  state.post = 'what is the SOTA web navigation agent repo';
  let rec = await episodeEndingAt(task(604), '/f/MachineLearning/123/what-is-sota/comment/9');
  assert.equal(rec.verdict.score, 1, rec.verdict.why);
  assert.deepEqual(
    rec.verdict.parts.map((p) => p.evaluator),
    ['url_match', 'program_html'],
  );
  state.post = 'a different title';
  rec = await episodeEndingAt(task(604), '/f/MachineLearning/123/what-is-sota/comment/9');
  assert.equal(rec.verdict.score, 0);
  assert.deepEqual(
    rec.verdict.parts.map((p) => p.score),
    [1, 0],
  );
  assert.match(rec.verdict.why, /missing "what is the SOTA web navigation agent repo"/);
  rec = await episodeEndingAt(task(604), '/f/technology/77/other');
  assert.equal(rec.verdict.parts[0]!.score, 0);
});

test('real task 699: JS locators with prep_actions, selectedIndex as Python str, exact_match', async () => {
  state.discount = '20';
  let rec = await episodeEndingAt(task(699), '/admin/sales_rule/promo_quote/edit/id/5/');
  assert.equal(rec.verdict.score, 1, rec.verdict.why);
  state.discount = '10';
  rec = await episodeEndingAt(task(699), '/admin/sales_rule/promo_quote/edit/id/5/');
  assert.equal(rec.verdict.score, 0);
  assert.match(rec.verdict.why, /"10" differs from "20"/);
});

test('real task 431: a concrete url target, the full HTML, |OR| alternatives', async () => {
  state.cart = '<td>10 Inch Tall Candles, Scent-Free Premium Wax Candle Sticks &amp; more</td>';
  let rec = await episodeEndingAt(task(431), '/');
  assert.equal(rec.verdict.score, 1, rec.verdict.why);
  assert.equal(state.cookie, 'session=shopping-user', 'the storage state logged the episode in');
  state.cart = '<p>You have no items in your shopping cart.</p>';
  rec = await episodeEndingAt(task(431), '/');
  assert.equal(rec.verdict.score, 0);
});

test('real task 481: the gitlab member-role helper reads the live members page', async () => {
  state.role = 'Guest';
  let rec = await episodeEndingAt(task(481), '/');
  assert.equal(rec.verdict.score, 1, rec.verdict.why);
  state.role = 'Developer';
  rec = await episodeEndingAt(task(481), '/');
  assert.equal(rec.verdict.score, 0);
});

test('real task 436: a helper that needs the shop admin API is unscored, with the reason', async () => {
  const rec = await episodeEndingAt(task(436), '/');
  assert.equal(rec.verdict.status, 'unscored');
  assert.match(rec.verdict.why, /shopping_get_latest_order_url is not configured/);
});

test('a locator that throws selects "" (score 0); an unknown locator is an error with its reason, not a crash', async () => {
  const throwing = webarenaTask(`${server.origin}/`, {
    eval_types: ['program_html'],
    program_html: [
      {
        url: 'last',
        locator: 'document.querySelector(".nope").outerText',
        required_contents: { exact_match: '' },
      },
    ],
  });
  let rec = await episodeEndingAt(throwing, '/');
  assert.equal(rec.verdict.score, 1, rec.verdict.why);
  const unknown = webarenaTask(`${server.origin}/`, {
    eval_types: ['program_html'],
    program_html: [{ url: 'last', locator: 'window.x', required_contents: { must_include: ['x'] } }],
  });
  rec = await episodeEndingAt(unknown, '/');
  assert.equal(rec.verdict.status, 'error');
  assert.equal(rec.verdict.score, 0);
  assert.match(rec.verdict.why, /Unknown locator: window.x/);
});

test('a list from a locator is compared as Python prints it', async () => {
  const t = webarenaTask(`${server.origin}/`, {
    eval_types: ['program_html'],
    program_html: [
      {
        url: 'last',
        locator: "[...document.querySelectorAll('td span')].map((e) => e.textContent)",
        required_contents: { must_include: ["['@byteblaze', 'Owner'"] },
      },
    ],
  });
  const rec = await episodeEndingAt(t, '/byteblaze/dotfiles/-/project_members');
  assert.equal(rec.verdict.score, 1, rec.verdict.why);
});
