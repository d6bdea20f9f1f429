import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DEFAULT_ACCOUNTS,
  type MiniArenaHost,
  pristineState,
  serveMiniArena,
  startMiniArenaHost,
} from '../../src/arena/index.js';
import { SHOP_PAGE_SIZE, searchProducts } from '../../src/arena/sites/shop/data.js';
import { get, post, textOf } from './helpers.js';

let host: MiniArenaHost;
const w = pristineState();
before(async () => {
  host = await startMiniArenaHost();
});
after(async () => {
  await host.close();
});

function prices(html: string): number[] {
  return [...html.matchAll(/<p class="price">\$([\d,.]+)<\/p>/g)].map((m) =>
    Number((m[1] ?? '').replace(/,/g, '')),
  );
}

test('shop: categories paginate and sort by price; search ranks a look-alike above the exact product', async () => {
  const cat = w.shop.categories[2];
  assert.ok(cat);
  const p1 = await get(host, `/shop/category/${cat.slug}?sort=price_asc`);
  const p2 = await get(host, `/shop/category/${cat.slug}?sort=price_asc&page=2`);
  const a = prices(p1.body);
  const b = prices(p2.body);
  assert.equal(a.length, SHOP_PAGE_SIZE);
  assert.ok(b.length > 0);
  assert.deepEqual(
    a,
    [...a].sort((x, y) => x - y),
  );
  assert.ok(Math.max(...a) <= Math.min(...b));
  assert.match(textOf(p2.body), new RegExp(`Items 13-${12 + b.length} of \\d+`));

  const base = w.shop.products.find((p) => w.shop.products.some((v) => v.variantOf === p.id));
  assert.ok(base);
  const res = await get(host, `/shop/search?q=${encodeURIComponent(base.name)}`);
  const names = [...res.body.matchAll(/<a class="product-name" href="[^"]+">([^<]+)<\/a>/g)].map((m) =>
    textOf(m[1] ?? ''),
  );
  assert.equal(names[0], `${base.name} Plus`);
  assert.ok(names.includes(base.name));
  assert.equal(searchProducts(w.shop, base.name)[0]?.variantOf, base.id);
});

test('shop: checkout turns the cart into a new order with the address and shipping given', async () => {
  await host.reset();
  const p = w.shop.products[10];
  assert.ok(p);
  await post(host, '/shop/cart/add', { product_id: String(p.id), qty: '3' });
  const incomplete = await post(host, '/shop/checkout', {
    name: 'Emma Lopes',
    street: '',
    city: 'X',
    state: 'OR',
    zip: '1',
  });
  assert.match(incomplete.location ?? '', /checkout\?flash=/);
  const done = await post(host, '/shop/checkout', {
    name: 'Emma Lopes',
    street: '9 Harbor St',
    city: 'Salem',
    state: 'MA',
    zip: '01970',
    shipping: 'express',
  });
  assert.equal(done.location?.split('?')[0], `/shop/orders/${w.shop.nextOrderId}`);
  const order = textOf((await get(host, `/shop/orders/${w.shop.nextOrderId}`)).body);
  assert.match(order, new RegExp(`${p.name} \\$[\\d.,]+ 3 `));
  assert.match(order, /9 Harbor St Salem, MA 01970/);
  assert.match(order, /Shipping & Handling: \$15\.00/);
  assert.match(order, /Status: Pending/);
  assert.match((await get(host, '/shop/cart')).body, /You have no items/);
  assert.match((await get(host, '/shop/orders')).body, new RegExp(`<td>${w.shop.nextOrderId}</td>`));
  await host.reset();
});

test('sign-in: pages that need an account redirect to the login form; wrong passwords and forged cookies fail', async () => {
  const anon = { signedIn: false } as const;
  const cart = await get(host, '/shop/cart', anon);
  assert.equal(cart.status, 303);
  assert.equal(cart.location, `/shop/login?next=${encodeURIComponent('/shop/cart')}`);
  const postPath = `/forum/f/${w.forum.posts[0]?.forum}/${w.forum.posts[0]?.id}`;
  const vote = await post(host, `${postPath}/vote`, { direction: 'up' }, anon);
  assert.match(vote.location ?? '', /^\/forum\/login/);
  assert.match((await get(host, postPath)).body, /<form class="vote" /);

  const bad = await post(host, '/tracker/users/sign_in', { username: 'byteblaze', password: 'nope' }, anon);
  assert.equal(bad.setCookie, null);
  const acct = DEFAULT_ACCOUNTS.gitlab;
  const good = await post(
    host,
    '/tracker/users/sign_in',
    { username: acct.username, password: acct.password },
    anon,
  );
  assert.ok(good.setCookie);
  assert.match(good.setCookie, /Path=\/tracker;/);
  const cookie = good.setCookie.split(';')[0] ?? '';
  assert.match(
    (await get(host, '/tracker/dashboard/issues', { cookie })).body,
    /Issues assigned to Byte Blaze/,
  );
  const forged = cookie.replace('byteblaze', 'kestrel');
  assert.equal((await get(host, '/tracker/dashboard/issues', { cookie: forged })).status, 303);
  // a session of one site does not sign in to another
  assert.equal((await get(host, '/shop/cart', { cookie: cookie.replace('tracker', 'shop') })).status, 303);
});

test('forum: votes toggle, comments and submissions appear, sorting by new shows the newest first', async () => {
  await host.reset();
  const p = w.forum.posts[30];
  assert.ok(p);
  const url = `/forum/f/${p.forum}/${p.id}`;
  const score = (html: string) => Number(/class="vote__net-score"[^>]*>(-?\d+)</.exec(html)?.[1]);
  const s0 = score((await get(host, url)).body);
  await post(host, `${url}/vote`, { direction: 'up' });
  let page = (await get(host, url)).body;
  assert.match(page, /class="vote vote--user-upvoted"/);
  assert.equal(score(page), s0 + 1);
  await post(host, `${url}/vote`, { direction: 'down' });
  page = (await get(host, url)).body;
  assert.match(page, /class="vote vote--user-downvoted"/);
  assert.equal(score(page), s0 - 1);
  await post(host, `${url}/vote`, { direction: 'down' });
  assert.equal(score((await get(host, url)).body), s0);

  const sub = await post(host, '/forum/submit', {
    forum: 'music',
    title: 'Fresh post title',
    body: 'Body text',
  });
  assert.equal(sub.location, `/forum/f/music/${w.forum.nextPostId}`);
  const newest = (await get(host, '/forum/f/music?sort=new')).body;
  assert.match(newest, /<h2 class="submission__title"[^>]*><a href="[^"]+">Fresh post title<\/a>/);
  await host.reset();
});

test('tracker: label, milestone and assignee filters narrow the list; counts match; a new issue gets the next number', async () => {
  await host.reset();
  const project = w.tracker.projects[1];
  assert.ok(project);
  const label = project.labels[0] ?? '';
  const expected = w.tracker.issues.filter(
    (i) => i.project === project.path && i.state === 'opened' && i.labels.includes(label),
  );
  const list = await get(
    host,
    `/tracker/${project.path}/-/issues?label_name%5B%5D=${encodeURIComponent(label)}`,
  );
  assert.match(textOf(list.body), new RegExp(`of ${expected.length} issues`));
  for (const i of expected.slice(0, 20)) assert.ok(list.body.includes(`/-/issues/${i.iid}"`), `#${i.iid}`);

  const m = project.milestones[0];
  const member = project.members[1];
  assert.ok(m && member);
  const both = w.tracker.issues.filter(
    (i) => i.project === project.path && i.milestone === m.title && i.assignee === member.username,
  ).length;
  const q = `state=all&milestone_title=${encodeURIComponent(m.title)}&assignee_username=${member.username}`;
  assert.match(
    textOf((await get(host, `/tracker/${project.path}/-/issues?${q}`)).body),
    new RegExp(`of ${both} issues`),
  );

  const created = await post(host, `/tracker/${project.path}/-/issues`, {
    title: 'Brand new issue',
    description: 'Details',
    'label_name[]': [label, 'not-a-label'],
    assignee_username: member.username,
  });
  assert.equal(created.location, `/tracker/${project.path}/-/issues/${project.nextIid}`);
  const page = (await get(host, `/tracker/${project.path}/-/issues/${project.nextIid}`)).body;
  assert.match(page, /<dd class="labels"><a class="label"[^>]*>[^<]+<\/a><\/dd>/);
  assert.ok(!page.includes('not-a-label'));
  await host.reset();
});

test('unknown pages are 404, wrong methods 405, and the bare site prefix redirects to the site', async () => {
  assert.equal((await get(host, '/shop/product/no-such-thing')).status, 404);
  assert.equal((await get(host, '/nowhere')).status, 404);
  assert.equal((await get(host, '/tracker/byteblaze/none/-/issues')).status, 404);
  assert.equal((await get(host, '/shop/cart/add')).status, 405);
  const bare = await get(host, '/forum');
  assert.equal(bare.status, 308);
  assert.equal(bare.location, '/forum/');
});

test('serveMiniArena starts a browsable instance and prints the placeholder mapping', async () => {
  const lines: string[] = [];
  const served = await serveMiniArena({ port: 0, log: (l) => lines.push(l) });
  try {
    assert.match(lines.join('\n'), /__SHOPPING__ = http:\/\/127\.0\.0\.1:\d+\/shop/);
    assert.match(lines.join('\n'), /__GITLAB__ {3}= http:\/\/127\.0\.0\.1:\d+\/tracker/);
    assert.equal(served.resolve('__REDDIT__/f/books'), `${served.origin}/forum/f/books`);
    assert.equal((await get(served, '/')).status, 200);
  } finally {
    await served.close();
  }
});
