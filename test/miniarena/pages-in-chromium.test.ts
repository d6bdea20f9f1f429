import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  DEFAULT_ACCOUNTS,
  generateTasks,
  type MiniArenaHost,
  type MiniArenaTask,
  pristineState,
  RESET_PATH,
  startMiniArenaHost,
} from '../../src/arena/index.js';
import { launchBrowser } from '../../src/envs/index.js';

let host: MiniArenaHost;
let browser: Browser;
let context: BrowserContext;
let page: Page;

before(async () => {
  host = await startMiniArenaHost();
  browser = await launchBrowser();
  context = await browser.newContext({
    storageState: host.storageState(),
    viewport: { width: 1280, height: 720 },
  });
  page = await context.newPage();
});
after(async () => {
  await context?.close();
  await browser?.close();
  await host?.close();
});

interface AXNode {
  ignored: boolean;
  role?: { value?: unknown };
  name?: { value?: unknown };
}

/** Chromium's own accessibility tree (CDP Accessibility.getFullAXTree, what WebArena reads), as role/name pairs. */
async function axTree(p: Page): Promise<Array<{ role: string; name: string }>> {
  const cdp = await context.newCDPSession(p);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    return nodes
      .filter((n) => !n.ignored)
      .map((n) => ({ role: String(n.role?.value ?? ''), name: String(n.name?.value ?? '') }));
  } finally {
    await cdp.detach();
  }
}

function has(tree: Array<{ role: string; name: string }>, role: string, name?: string | RegExp): boolean {
  return tree.some(
    (n) =>
      n.role === role &&
      (name === undefined || (typeof name === 'string' ? n.name === name : name.test(n.name))),
  );
}

test('the accessibility tree names what a person sees: landmarks, headings, labelled fields', async () => {
  const w = pristineState();
  const product = w.shop.products[0];
  // the newest open issue of the first project is on the first page of its issue list
  const issue = w.tracker.issues
    .filter((i) => i.project === w.tracker.projects[0]?.path && i.state === 'opened')
    .sort((a, b) => b.createdDay - a.createdDay || b.iid - a.iid)[0];
  assert.ok(product && issue);

  await page.goto(`${host.urls.shopping}/product/${product.slug}`);
  let tree = await axTree(page);
  for (const role of ['main', 'banner', 'navigation', 'search', 'contentinfo'])
    assert.ok(has(tree, role), role);
  assert.ok(has(tree, 'heading', product.name));
  assert.ok(has(tree, 'heading', /^Customer Reviews \(\d+\)$/));
  assert.ok(has(tree, 'spinbutton', 'Qty'));
  assert.ok(has(tree, 'button', 'Add to Cart'));
  assert.ok(has(tree, 'searchbox', 'Search products'));
  assert.ok(has(tree, 'radio', '5 stars'));
  assert.ok(has(tree, 'textbox', 'Nickname'));

  await page.goto(`${host.urls.gitlab}/${issue.project}/-/issues`);
  tree = await axTree(page);
  assert.ok(has(tree, 'heading', 'Issues'));
  assert.ok(has(tree, 'navigation', 'Pagination'));
  assert.ok(has(tree, 'link', /^Closed \d+$/));
  assert.ok(has(tree, 'searchbox', 'Search issues by title'));
  assert.ok(has(tree, 'link', issue.title));

  await context.clearCookies();
  await page.goto(`${host.urls.reddit}/login`);
  tree = await axTree(page);
  assert.ok(has(tree, 'textbox', 'Username'));
  assert.ok(has(tree, 'button', 'Log in'));
  await context.addCookies(host.storageState().cookies);
});

test("each site's main pages render in Chromium (screenshots are not blank)", async () => {
  await page.setContent('<html><body></body></html>');
  const blank = (await page.screenshot()).length;
  const w = pristineState();
  const urls = [
    `${host.urls.shopping}/`,
    `${host.urls.shopping}/category/${w.shop.categories[0]?.slug}`,
    `${host.urls.shopping}/orders`,
    `${host.urls.reddit}/`,
    `${host.urls.reddit}/f/${w.forum.posts[0]?.forum}/${w.forum.posts[0]?.id}`,
    `${host.urls.gitlab}/`,
    `${host.urls.gitlab}/${w.tracker.projects[0]?.path}/-/issues`,
  ];
  for (const url of urls) {
    const res = await page.goto(url);
    assert.equal(res?.status(), 200, url);
    const shot = await page.screenshot();
    assert.ok(shot.length > blank * 3, `${url}: ${shot.length} bytes vs blank ${blank}`);
    assert.ok((await page.locator('h1').count()) >= 1, url);
  }
});

test('signing in through the login form works and a wrong password is refused', async () => {
  const fresh = await browser.newContext();
  try {
    const p = await fresh.newPage();
    const acct = DEFAULT_ACCOUNTS.gitlab;
    await p.goto(`${host.origin}${acct.loginPath}`);
    await p.getByLabel('Username').fill(acct.username);
    await p.getByLabel('Password').fill('wrong');
    await p.getByRole('button', { name: 'Sign in' }).click();
    assert.match((await p.locator('[role=status]').textContent()) ?? '', /Invalid login/);
    await p.getByLabel('Username').fill(acct.username);
    await p.getByLabel('Password').fill(acct.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    assert.equal(await p.locator('.current-user').textContent(), acct.username);
  } finally {
    await fresh.close();
  }
});

test("the agent's browser cannot use the reset route: navigation and form posts are refused", async () => {
  await host.reset();
  const p = pristineState().shop.products[3];
  assert.ok(p);
  await page.goto(`${host.urls.shopping}/product/${p.slug}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  const cartBefore = await page.locator('.cart-items').textContent();
  assert.ok(cartBefore?.includes(p.name));
  const nav = await page.goto(`${host.origin}${RESET_PATH}`);
  assert.equal(nav?.status(), 403);
  // a form post from a page (all a click can send) carries no custom header
  await page.setContent(
    `<form method="post" action="${host.origin}${RESET_PATH}"><input name="token" value="${host.resetToken}"><button>Go</button></form>`,
  );
  const [res] = await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: 'Go' }).click(),
  ]);
  assert.equal(res?.status(), 403);
  await page.goto(`${host.urls.shopping}/cart`);
  assert.equal(await page.locator('.cart-items').textContent(), cartBefore);
  await host.reset();
});

test('Enter submits single-field forms but not multi-field ones, so typing field by field is safe', async () => {
  await host.reset();
  const p = pristineState().shop.products[5];
  assert.ok(p);
  await page.goto(`${host.urls.shopping}/`);
  await page.getByRole('searchbox', { name: 'Search products' }).fill(p.name);
  await page.getByRole('searchbox', { name: 'Search products' }).press('Enter');
  await page.waitForURL(/\/shop\/search\?q=/);
  await page.getByRole('link', { name: p.name, exact: true }).first().click();
  await page.getByLabel('Qty').fill('2');
  await page.getByLabel('Qty').press('Enter');
  await page.waitForURL(/\/shop\/cart/);
  await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
  await page.getByLabel('Street Address').fill('1 Enter Lane');
  await page.getByLabel('Street Address').press('Enter');
  await page.getByLabel('City').fill('Boise');
  await page.getByLabel('City').press('Enter');
  assert.match(page.url(), /\/shop\/checkout$/);
  await page.getByRole('button', { name: 'Place Order' }).click();
  await page.waitForURL(/\/shop\/orders\/\d+/);
  assert.match((await page.locator('.order-address').textContent()) ?? '', /1 Enter Lane.*Boise/s);
  await host.reset();
});

test('pages run no script but their key handler: one added to a page does not run', async () => {
  await page.goto(`${host.urls.shopping}/`);
  // a string, as the page sees it (this file is not compiled against the DOM)
  const ran = await page.evaluate(`(async () => {
    const s = document.createElement('script');
    s.textContent = 'document.body.dataset.ran = "yes"';
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 50));
    return document.body.dataset.ran ?? 'no';
  })()`);
  assert.equal(ran, 'no');
});

/** WebArena's program_html check, run in the page: goto, evaluate the locator, compare. */
async function programHtmlPasses(t: MiniArenaTask): Promise<boolean> {
  for (const target of t.eval.program_html) {
    await page.goto(host.resolve(target.url));
    const value = target.locator
      ? String(await page.evaluate(target.locator).catch(() => ''))
      : await page.content();
    const text = value
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"');
    const clean = (s: string) => s.trim().toLowerCase();
    const { exact_match, must_include } = target.required_contents;
    if (exact_match !== undefined && clean(text) !== clean(exact_match)) return false;
    for (const item of must_include ?? [])
      if (!item.split(' |OR| ').some((alt) => clean(text).includes(clean(alt)))) return false;
  }
  return true;
}

test('program_html tasks fail on the seeded site and pass after doing them through the UI', async () => {
  const { train, test: testSplit } = generateTasks();
  const pick = (template: string) => {
    const t = [...train, ...testSplit].find((x) => x.miniarena.template === template);
    assert.ok(t, template);
    return t;
  };
  const d = (t: MiniArenaTask, k: string) => String(t.instantiation_dict[k]);
  const solutions: Record<string, (t: MiniArenaTask) => Promise<void>> = {
    tracker_close_issue: async (t) => {
      await page.goto(host.resolve(t.start_url));
      await page.getByRole('link', { name: 'Issues', exact: true }).first().click();
      await page.getByLabel('Search issues by title').fill(d(t, 'title'));
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('link', { name: d(t, 'title'), exact: true }).click();
      await page.getByRole('button', { name: 'Close issue' }).click();
    },
    forum_vote_ranked: async (t) => {
      const sort = d(t, 'which') === 'newest' ? 'New' : 'Top';
      await page.goto(`${host.urls.reddit}/f/${d(t, 'forum')}`);
      await page
        .getByRole('navigation', { name: 'Sort submissions' })
        .getByRole('link', { name: sort })
        .click();
      await page.locator('.submission__title a').first().click();
      await page.getByRole('button', { name: d(t, 'action') }).click();
    },
    shop_add_to_cart: async (t) => {
      await page.goto(host.resolve(t.start_url));
      await page.getByRole('searchbox', { name: 'Search products' }).fill(d(t, 'product'));
      await page.getByRole('button', { name: 'Search' }).click();
      await page
        .getByRole('link', { name: d(t, 'product'), exact: true })
        .first()
        .click();
      await page.getByLabel('Qty').fill(d(t, 'qty'));
      await page.getByRole('button', { name: 'Add to Cart' }).click();
    },
    forum_set_bio: async (t) => {
      await page.goto(host.resolve(t.start_url));
      await page.getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('link', { name: 'Edit biography' }).click();
      await page.getByLabel('Biography', { exact: true }).fill(d(t, 'bio'));
      await page.getByRole('button', { name: 'Save' }).click();
    },
    tracker_create_issue: async (t) => {
      await page.goto(host.resolve(t.start_url));
      await page.getByRole('link', { name: 'Issues', exact: true }).first().click();
      await page.getByRole('link', { name: 'New issue' }).click();
      await page.getByLabel('Title').fill(d(t, 'title'));
      await page.getByLabel('Description').fill(d(t, 'description'));
      await page.getByRole('radio', { name: d(t, 'assignee'), exact: true }).check();
      await page.getByRole('checkbox', { name: d(t, 'label'), exact: true }).check();
      await page.getByRole('radio', { name: d(t, 'milestone'), exact: true }).check();
      await page.getByRole('button', { name: 'Create issue' }).click();
    },
    shop_checkout: async (t) => {
      await page.goto(host.resolve(t.start_url));
      await page.getByRole('searchbox', { name: 'Search products' }).fill(d(t, 'product'));
      await page.getByRole('button', { name: 'Search' }).click();
      await page
        .getByRole('link', { name: d(t, 'product'), exact: true })
        .first()
        .click();
      await page.getByLabel('Qty').fill(d(t, 'qty'));
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
      await page.getByLabel('Street Address').fill(d(t, 'street'));
      await page.getByLabel('City').fill(d(t, 'city'));
      await page.getByLabel('State').fill(d(t, 'state'));
      await page.getByLabel('Zip/Postal Code').fill(d(t, 'zip'));
      await page.getByRole('radio', { name: new RegExp(`^${d(t, 'shipping')}`, 'i') }).check();
      await page.getByRole('button', { name: 'Place Order' }).click();
    },
  };
  for (const [template, solve] of Object.entries(solutions)) {
    const t = pick(template);
    await host.reset();
    assert.equal(await programHtmlPasses(t), false, `${template} already passes on the seeded site`);
    await solve(t);
    assert.equal(await programHtmlPasses(t), true, `${template} fails after solving: ${t.intent}`);
  }
  await host.reset();
});
