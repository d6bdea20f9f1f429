import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  generateTasks,
  type MiniArenaHost,
  type MiniArenaTask,
  startMiniArenaHost,
} from '../../src/arena/index.js';
import { launchBrowser } from '../../src/envs/index.js';
import { get, post, textOf } from './helpers.js';

// Each program_html template is solved here the way its intent reads, by reading the live site
// over HTTP (search, lists, forms) — not from the generator's data — and then scored in Chromium
// with WebArena's program_html rule. A task must fail on the seeded site and pass once done.

let host: MiniArenaHost;
let browser: Browser;
let page: Page;

before(async () => {
  host = await startMiniArenaHost();
  browser = await launchBrowser();
  const context = await browser.newContext({ storageState: host.storageState() });
  page = await context.newPage();
});
after(async () => {
  await browser?.close();
  await host?.close();
});

const plain = (s: string) => textOf(s).trim();

/** href of the first link whose text is exactly `text` (optionally inside elements with `cls`). */
async function linkTo(path: string, text: string, cls = ''): Promise<string> {
  const body = (await get(host, path)).body;
  for (const m of body.matchAll(/<a (?:class="([^"]*)" )?href="([^"]+)"[^>]*>([^<]*)<\/a>/g))
    if (plain(m[3] ?? '') === text && (!cls || (m[1] ?? '').includes(cls))) return plain(m[2] ?? '');
  throw new Error(`no link "${text}" on ${path}`);
}

async function productByName(name: string): Promise<{ path: string; id: string }> {
  const path = await linkTo(`/shop/search?q=${encodeURIComponent(name)}`, name, 'product-name');
  const id = /name="product_id" value="(\d+)"/.exec((await get(host, path)).body)?.[1];
  assert.ok(id);
  return { path, id };
}

async function firstPost(forum: string, sort: string): Promise<string> {
  const body = (await get(host, `/forum/f/${forum}?sort=${sort}`)).body;
  const href = /<h2 class="submission__title"[^>]*><a href="([^"]+)"/.exec(body)?.[1];
  assert.ok(href);
  return href;
}

async function submit(forum: string, title: string, body: string): Promise<void> {
  assert.equal((await post(host, '/forum/submit', { forum, title, body })).status, 303);
}

async function closeIssue(path: string): Promise<void> {
  assert.equal((await post(host, `${path}/close`, {})).status, 303);
}

const d = (t: MiniArenaTask, k: string) => String(t.instantiation_dict[k]);

const SOLVE: Record<string, (t: MiniArenaTask) => Promise<void>> = {
  shop_add_to_cart: async (t) => {
    const p = await productByName(d(t, 'product'));
    await post(host, '/shop/cart/add', { product_id: p.id, qty: d(t, 'qty') });
  },
  shop_write_review: async (t) => {
    const p = await productByName(d(t, 'product'));
    await post(host, `${p.path}/review`, {
      rating: d(t, 'stars'),
      nickname: d(t, 'nickname'),
      title: d(t, 'summary'),
      body: d(t, 'text'),
    });
  },
  shop_checkout: async (t) => {
    const p = await productByName(d(t, 'product'));
    await post(host, '/shop/cart/add', { product_id: p.id, qty: d(t, 'qty') });
    const placed = await post(host, '/shop/checkout', {
      name: 'Emma Lopes',
      street: d(t, 'street'),
      city: d(t, 'city'),
      state: d(t, 'state'),
      zip: d(t, 'zip'),
      shipping: d(t, 'shipping'),
    });
    assert.match(placed.location ?? '', /\/shop\/orders\/\d+/);
  },
  shop_reorder: async (t) => {
    let orderPath = '';
    for (let n = 1; n <= 5 && !orderPath; n++) {
      const body = (await get(host, `/shop/orders?page=${n}`)).body;
      const row = [...body.matchAll(/<tr class="order-row">([\s\S]*?)<\/tr>/g)].find((m) =>
        (m[1] ?? '').includes(`<td>${d(t, 'date')}</td>`),
      );
      orderPath = /href="([^"]+)"/.exec(row?.[1] ?? '')?.[1] ?? '';
    }
    assert.ok(orderPath, 'order not found');
    const order = (await get(host, orderPath)).body;
    const items = [
      ...order.matchAll(/<td class="order-item-name">([^<]+)<\/td><td>[^<]+<\/td><td>(\d+)<\/td>/g),
    ].map((m) => ({ name: plain(m[1] ?? ''), qty: m[2] ?? '1' }));
    assert.ok(items.length >= 3);
    for (const i of items) {
      const p = await productByName(i.name);
      await post(host, '/shop/cart/add', { product_id: p.id, qty: i.qty });
    }
  },
  forum_vote_ranked: async (t) => {
    const href = await firstPost(d(t, 'forum'), d(t, 'which') === 'newest' ? 'new' : 'top');
    await post(host, `${href}/vote`, { direction: d(t, 'action') === 'Upvote' ? 'up' : 'down' });
  },
  forum_reply: async (t) => {
    const href = await linkTo(`/forum/search?q=${encodeURIComponent(d(t, 'title'))}`, d(t, 'title'));
    await post(host, `${href}/comment`, { body: d(t, 'comment') });
  },
  forum_submit: (t) => submit(d(t, 'forum'), d(t, 'title'), d(t, 'body')),
  forum_set_bio: async (t) => {
    await post(host, '/forum/user/MarvelsGrantMan136/edit_biography', { biography: d(t, 'bio') });
  },
  forum_crosspost: async (t) => {
    for (const f of ['f1', 'f2', 'f3']) await submit(d(t, f), d(t, 'title'), d(t, 'body'));
  },
  forum_upvote_user_posts: async (t) => {
    const body = (await get(host, `/forum/user/${d(t, 'user')}`)).body;
    const hrefs = [...body.matchAll(/<h2 class="submission__title"[^>]*><a href="([^"]+)"/g)].map(
      (m) => m[1] ?? '',
    );
    assert.ok(hrefs.length >= 3);
    for (const h of hrefs) await post(host, `${h}/vote`, { direction: 'up' });
  },
  tracker_close_issue: async (t) => {
    const q = `/tracker/${d(t, 'project')}/-/issues?search=${encodeURIComponent(d(t, 'title'))}`;
    await closeIssue(await linkTo(q, d(t, 'title'), 'issue-title'));
  },
  tracker_comment_issue: async (t) => {
    await post(host, `/tracker/${d(t, 'project')}/-/issues/${d(t, 'iid')}/notes`, { note: d(t, 'comment') });
  },
  tracker_create_issue: async (t) => {
    const members = (await get(host, `/tracker/${d(t, 'project')}/-/project_members`)).body;
    const row = [...members.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].find((m) =>
      plain(m[1] ?? '').startsWith(d(t, 'assignee')),
    );
    const username = /@([a-z0-9.-]+)/.exec(row?.[1] ?? '')?.[1];
    assert.ok(username, 'assignee not among members');
    const created = await post(host, `/tracker/${d(t, 'project')}/-/issues`, {
      title: d(t, 'title'),
      description: d(t, 'description'),
      'label_name[]': d(t, 'label'),
      assignee_username: username,
      milestone_title: d(t, 'milestone'),
    });
    assert.match(created.location ?? '', /\/-\/issues\/\d+$/);
  },
  tracker_close_all_with_label: async (t) => {
    const q = `/tracker/${d(t, 'project')}/-/issues?label_name%5B%5D=${encodeURIComponent(d(t, 'label'))}`;
    const body = (await get(host, q)).body;
    const hrefs = [...body.matchAll(/<a class="issue-title" href="([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(hrefs.length >= 3);
    for (const h of hrefs) await closeIssue(h);
  },
};

/** WebArena's program_html rule: goto each target url, evaluate the locator (or take the HTML), compare. */
async function passes(t: MiniArenaTask): Promise<boolean> {
  for (const target of t.eval.program_html) {
    await page.goto(host.resolve(target.url));
    const raw = target.locator
      ? String(await page.evaluate(target.locator).catch(() => ''))
      : await page.content();
    const text = raw.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').trim().toLowerCase();
    const { exact_match, must_include } = target.required_contents;
    if (exact_match !== undefined && text !== exact_match.trim().toLowerCase()) return false;
    for (const item of must_include ?? [])
      if (!item.split(' |OR| ').some((alt) => text.includes(alt.trim().toLowerCase()))) return false;
  }
  return true;
}

test('every program_html template: its tasks fail on the seeded site and pass once done as the intent says', async () => {
  const { train, test: testSplit } = generateTasks();
  const tasks = [...train, ...testSplit].filter((t) => t.eval.eval_types.includes('program_html'));
  const templates = [...new Set(tasks.map((t) => t.miniarena.template))];
  assert.deepEqual(
    templates.filter((k) => !SOLVE[k]),
    [],
    'a program_html template without a solver here',
  );
  for (const key of templates) {
    const solve = SOLVE[key];
    assert.ok(solve);
    for (const t of tasks.filter((x) => x.miniarena.template === key).slice(0, 2)) {
      await host.reset();
      assert.equal(await passes(t), false, `${key}: passes before anything was done (${t.intent})`);
      await solve(t);
      assert.equal(await passes(t), true, `${key}: fails after doing "${t.intent}"`);
    }
  }
  await host.reset();
});
