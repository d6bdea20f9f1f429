import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import {
  type MiniArenaHost,
  pristineState,
  RESET_PATH,
  RESET_TOKEN_HEADER,
  resetMiniArenaOverHttp,
  startMiniArenaHost,
} from '../../src/arena/index.js';
import { get, post, textOf } from './helpers.js';

let host: MiniArenaHost;
let other: MiniArenaHost;
const TOKEN = 'test-reset-token-0123456789';

before(async () => {
  [host, other] = await Promise.all([startMiniArenaHost({ resetToken: TOKEN }), startMiniArenaHost()]);
});
after(async () => {
  await Promise.all([host.close(), other.close()]);
});

const world = pristineState();
const product = world.shop.products[4];
const forumPost = world.forum.posts[20];
const issue = world.tracker.issues.find((i) => i.state === 'opened');
assert.ok(product && forumPost && issue);
const issuePath = `/tracker/${issue.project}/-/issues/${issue.iid}`;
const postPath = `/forum/f/${forumPost.forum}/${forumPost.id}`;

/** Changes all three sites: add to cart, comment on a post, close an issue. */
async function mutate(h: MiniArenaHost): Promise<void> {
  assert.equal((await post(h, '/shop/cart/add', { product_id: String(product?.id), qty: '2' })).status, 303);
  assert.equal(
    (await post(h, `${postPath}/comment`, { body: 'A comment that reset must remove' })).status,
    303,
  );
  assert.equal((await post(h, `${issuePath}/close`, {})).status, 303);
}

async function snapshot(h: MiniArenaHost): Promise<{ cart: string; post: string; issue: string }> {
  const [cart, p, i] = await Promise.all([get(h, '/shop/cart'), get(h, postPath), get(h, issuePath)]);
  return { cart: cart.body, post: p.body, issue: i.body };
}

function assertChanged(s: { cart: string; post: string; issue: string }): void {
  assert.match(textOf(s.cart), new RegExp(`${product?.name} .*\\$`));
  assert.match(s.post, /A comment that reset must remove/);
  assert.match(s.issue, /<span class="issue-state">Closed<\/span>/);
}

test('reset() restores the seeded state after the cart, a post and an issue changed', async (t) => {
  const seeded = await snapshot(host);
  assert.match(seeded.cart, /You have no items in your shopping cart/);
  await mutate(host);
  assertChanged(await snapshot(host));
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    if (i > 0) await mutate(host);
    const t0 = performance.now();
    await host.reset();
    times.push(performance.now() - t0);
    assert.deepEqual(await snapshot(host), seeded);
  }
  t.diagnostic(`reset() ms: ${times.map((x) => x.toFixed(2)).join(', ')}`);
});

test('the reset route with the token restores the seeded state', async (t) => {
  const seeded = await snapshot(host);
  await mutate(host);
  assertChanged(await snapshot(host));
  const t0 = performance.now();
  await resetMiniArenaOverHttp(host.origin, TOKEN);
  t.diagnostic(`HTTP reset round trip ms: ${(performance.now() - t0).toFixed(2)}`);
  assert.deepEqual(await snapshot(host), seeded);
});

test('the reset route refuses requests without the right token and changes nothing', async () => {
  await mutate(host);
  const before = await snapshot(host);
  const attempts: Array<Record<string, string>> = [
    {},
    { [RESET_TOKEN_HEADER]: 'wrong' },
    { [RESET_TOKEN_HEADER]: '' },
  ];
  for (const headers of attempts) {
    const res = await fetch(`${host.origin}${RESET_PATH}`, { method: 'POST', headers });
    assert.equal(res.status, 403);
    await res.arrayBuffer();
  }
  // a browser can only send GETs and form POSTs: the token cannot ride in a query string or a form
  const viaQuery = await fetch(`${host.origin}${RESET_PATH}?${RESET_TOKEN_HEADER}=${TOKEN}&token=${TOKEN}`);
  assert.equal(viaQuery.status, 403);
  await viaQuery.arrayBuffer();
  const viaForm = await fetch(`${host.origin}${RESET_PATH}`, {
    method: 'POST',
    body: new URLSearchParams({ [RESET_TOKEN_HEADER]: TOKEN, token: TOKEN }),
  });
  assert.equal(viaForm.status, 403);
  await viaForm.arrayBuffer();
  await assert.rejects(resetMiniArenaOverHttp(host.origin, 'nope'), /HTTP 403/);
  assert.deepEqual(await snapshot(host), before);
  await host.reset();
});

test('two instances on two ports do not share state', async () => {
  assert.notEqual(host.port, other.port);
  await host.reset();
  await other.reset();
  await mutate(host);
  assertChanged(await snapshot(host));
  const o = await snapshot(other);
  assert.match(o.cart, /You have no items in your shopping cart/);
  assert.doesNotMatch(o.post, /A comment that reset must remove/);
  assert.match(o.issue, /<span class="issue-state">Open<\/span>/);
  await host.reset();
});
