import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  generateArenaState,
  generateTasks,
  type MiniArenaHost,
  pristineState,
  serializeTasks,
  startMiniArenaHost,
  TASKS_DIR,
} from '../../src/arena/index.js';
import { get } from './helpers.js';

const SEED = 424242;
let a: MiniArenaHost;
let b: MiniArenaHost;
let c: MiniArenaHost;

before(async () => {
  [a, b, c] = await Promise.all([
    startMiniArenaHost({ seed: SEED }),
    startMiniArenaHost({ seed: SEED }),
    startMiniArenaHost({ seed: SEED + 1 }),
  ]);
});
after(async () => {
  await Promise.all([a.close(), b.close(), c.close()]);
});

/** A crawl of the main pages, built from the state so it visits real products, posts and issues. */
function pagesOf(seed: number): string[] {
  const w = pristineState(seed);
  const p = w.shop.products[7];
  const post = w.forum.posts[11];
  const project = w.tracker.projects[2];
  assert.ok(p && post && project);
  return [
    '/',
    '/shop/',
    '/shop/categories',
    `/shop/category/${w.shop.categories[1]?.slug}?sort=price_desc&page=2`,
    '/shop/search?q=compact+kettle',
    `/shop/product/${p.slug}`,
    '/shop/orders?page=2',
    `/shop/orders/${w.shop.orders[3]?.id}`,
    '/forum/',
    '/forum/forums',
    '/forum/f/books?sort=top&page=2',
    `/forum/f/${post.forum}/${post.id}`,
    `/forum/user/${post.author}`,
    '/forum/search?q=advice',
    '/tracker/',
    `/tracker/${project.path}`,
    `/tracker/${project.path}/-/issues?state=all&sort=created_asc&page=2`,
    `/tracker/${project.path}/-/issues/5`,
    `/tracker/${project.path}/-/project_members`,
    `/tracker/${project.path}/-/milestones`,
    '/tracker/dashboard/issues',
  ];
}

test('two hosts with the same seed serve byte-identical pages', async () => {
  for (const url of pagesOf(SEED)) {
    const [x, y] = await Promise.all([get(a, url), get(b, url)]);
    assert.equal(x.status, 200, url);
    assert.equal(x.body, y.body, url);
  }
});

test('a different seed gives a different site', async () => {
  let differing = 0;
  const urls = [
    '/shop/',
    '/shop/category/electronics',
    '/forum/',
    '/forum/f/books',
    '/tracker/',
    '/shop/orders',
  ];
  for (const url of urls) {
    const [x, y] = await Promise.all([get(a, url), get(c, url)]);
    assert.equal(y.status, 200, url);
    if (x.body !== y.body) differing++;
  }
  assert.equal(differing, urls.length);
});

test('the generator is deterministic and the world is large enough', () => {
  const x = generateArenaState(SEED);
  const y = generateArenaState(SEED);
  assert.deepEqual(x, y);
  assert.notDeepEqual(generateArenaState(SEED + 1).shop.products, x.shop.products);
  assert.ok(x.shop.products.length >= 300, `products ${x.shop.products.length}`);
  assert.ok(x.forum.posts.length >= 300, `posts ${x.forum.posts.length}`);
  assert.ok(x.tracker.issues.length >= 300, `issues ${x.tracker.issues.length}`);
});

test('the same seed gives identical tasks, a different seed different ones', () => {
  const x = generateTasks({ seed: SEED });
  const y = generateTasks({ seed: SEED });
  assert.equal(serializeTasks(x.train), serializeTasks(y.train));
  assert.equal(serializeTasks(x.test), serializeTasks(y.test));
  const z = generateTasks({ seed: SEED + 1 });
  assert.notEqual(serializeTasks(z.test), serializeTasks(x.test));
});

test('the committed task files are what the generator writes for the default seed', () => {
  const suite = generateTasks();
  for (const split of ['train', 'test'] as const) {
    const onDisk = readFileSync(path.join(TASKS_DIR, `${split}.json`), 'utf8');
    assert.equal(
      onDisk,
      serializeTasks(suite[split]),
      `tasks/miniarena/${split}.json is stale: regenerate it`,
    );
  }
});
