import type { ObservationNode } from '../../../envs/index.js';
import { type Driver, OracleError } from '../driver.js';
import { type Solver, slot } from '../types.js';

const PRICE = /^\$[\d,]+\.\d\d$/;
const MAX_PAGES = 12;

const isProductLink = (d: Driver, n: ObservationNode) =>
  n.role === 'link' && d.linkUrl(n).includes('/shop/product/');

/** The texts shown with a product in a listing (between its link and the next product's). */
function listingTexts(d: Driver, link: ObservationNode): string[] {
  return d
    .until(link, (n) => isProductLink(d, n) || n.role === 'navigation' || n.role === 'contentinfo')
    .filter((n) => n.role === 'StaticText')
    .map((n) => n.name);
}

async function search(d: Driver, query: string): Promise<void> {
  await d.type(
    (x) => x.maybe((n) => n.role === 'searchbox' && n.name === 'Search products'),
    query,
    'search box',
    {
      enter: true,
    },
  );
}

async function nextPage(d: Driver, what: string): Promise<void> {
  if (!d.byName('link', 'Next')) throw new OracleError(`${what}: no further page at ${d.pathOf(d.url)}`);
  await d.clickLink('Next');
}

/** Pages through the current product listing until a product named exactly `name` shows. */
async function findInListing(d: Driver, name: string): Promise<ObservationNode> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const link = d.maybe((n) => isProductLink(d, n) && n.name === name);
    if (link) return link;
    await nextPage(d, `product "${name}"`);
  }
  throw new OracleError(`product "${name}" not found in ${MAX_PAGES} pages`);
}

/** Searches the product's name and opens the product with exactly that name. */
async function openProduct(d: Driver, name: string): Promise<void> {
  await search(d, name);
  await findInListing(d, name);
  await d.click((x) => x.maybe((n) => isProductLink(x, n) && n.name === name), `product "${name}"`);
}

/** On a product page: the price under its title. */
function productPagePrice(d: Driver): string {
  const h = d.find((n) => n.role === 'heading' && d.indexOf(n) > 0, 'product title');
  const price = d.until(h, (n) => n.role === 'DescriptionList').find((n) => PRICE.test(n.name));
  if (!price) throw new OracleError(`no price on ${d.pathOf(d.url)}`);
  return price.name;
}

/** Qty field: a quantity of 1 is the default; otherwise type it (Enter submits the form). */
async function addToCart(d: Driver, qty: string): Promise<void> {
  if (qty === '1') await d.click((x) => x.byName('button', 'Add to Cart'), 'Add to Cart');
  else
    await d.type((x) => x.maybe((n) => n.role === 'spinbutton' && n.name === 'Qty'), qty, 'Qty', {
      enter: true,
    });
}

/** Reads the price (and review count) of `name` from the current listing, opening the product when the list does not show it. */
async function listingFact(d: Driver, name: string, fact: 'price' | 'reviews'): Promise<string> {
  const link = await findInListing(d, name);
  const texts = listingTexts(d, link);
  if (fact === 'price') {
    const p = texts.find((t) => PRICE.test(t));
    if (p) return p;
  } else {
    const r = texts.find((t) => /^Rating: .*\((\d+) reviews?\)$/.test(t) || t === 'No reviews yet');
    if (r) return r === 'No reviews yet' ? '0' : (/\((\d+) reviews?\)/.exec(r)?.[1] ?? '0');
  }
  // the accessibility tree dropped a repeated text: read it on the product page
  await d.click((x) => x.maybe((n) => isProductLink(x, n) && n.name === name), `product "${name}"`);
  if (fact === 'price') return productPagePrice(d);
  const h = d.find(
    (n) => n.role === 'heading' && /^Customer Reviews \(\d+\)$/.test(n.name),
    'reviews heading',
  );
  return /\((\d+)\)/.exec(h.name)?.[1] ?? '0';
}

interface OrderRow {
  id: string;
  date: string;
  total: string;
  status: string;
  cells: ObservationNode[];
}

function orderRows(d: Driver): OrderRow[] {
  const table = d.find((n) => n.role === 'table' && n.name.startsWith('Orders '), 'orders table');
  return d
    .rows(table)
    .filter((r) => r.cells.length >= 5 && r.cells[0]!.role === 'cell')
    .map((r) => ({
      id: r.cells[0]!.name,
      date: r.cells[1]!.name,
      total: r.cells[3]!.name,
      status: r.cells[4]!.name,
      cells: r.cells,
    }));
}

async function openOrders(d: Driver): Promise<void> {
  await d.clickLink('My Orders');
}

/** Pages through My Orders until a row matches. */
async function findOrder(d: Driver, match: (r: OrderRow) => boolean, what: string): Promise<OrderRow> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const row = orderRows(d).find(match);
    if (row) return row;
    await nextPage(d, what);
  }
  throw new OracleError(`${what} not found`);
}

async function openOrder(d: Driver, id: string): Promise<void> {
  await d.clickLink(`View order ${id}`);
}

/** The items of the order page: [name, qty]. */
function orderItems(d: Driver): Array<{ name: string; qty: string }> {
  const table = d.find((n) => n.role === 'table' && n.name === 'Items Ordered', 'items table');
  return d
    .rows(table)
    .filter((r) => r.cells.length >= 3 && r.cells[0]!.role === 'cell')
    .map((r) => ({ name: r.cells[0]!.name, qty: r.cells[2]!.name }));
}

const cents = (money: string) => Math.round(Number(money.replace(/[$,]/g, '')) * 100);
const ym = (displayDate: string) => {
  const t = new Date(`${displayDate} 12:00 UTC`);
  return t.getUTCFullYear() * 12 + t.getUTCMonth();
};

export const shopSolvers: Record<string, Solver> = {
  shop_price: async (d, t) => {
    await search(d, slot(t, 'product'));
    await d.stop(await listingFact(d, slot(t, 'product'), 'price'));
  },
  shop_price_lookalike: async (d, t) => {
    await search(d, slot(t, 'product'));
    await d.stop(await listingFact(d, slot(t, 'product'), 'price'));
  },
  shop_sku: async (d) => {
    const term = d.find((n) => n.role === 'term' && n.name === 'SKU', 'SKU');
    const sku = d.until(term, (n) => n.role === 'term').find((n) => n.role === 'StaticText');
    if (!sku) throw new OracleError('no SKU value');
    await d.stop(sku.name);
  },
  shop_review_count: async (d, t) => {
    await search(d, slot(t, 'product'));
    await d.stop(await listingFact(d, slot(t, 'product'), 'reviews'));
  },
  shop_category_sorted: async (d, t) => {
    await d.clickLink(slot(t, 'category'));
    await d.clickLink(slot(t, 'order') === 'lowest first' ? 'Price: low to high' : 'Price: high to low');
    await d.stop();
  },
  shop_brand_price_range: async (d, t) => {
    const brand = slot(t, 'brand');
    await d.clickLink(slot(t, 'category'));
    await d.clickLink('Name');
    const prices = new Map<string, string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const links = d.nodes.filter((n) => isProductLink(d, n));
      const mine = links.filter((l) => l.name.startsWith(`${brand} `));
      const missing: string[] = [];
      for (const l of mine) {
        const price = listingTexts(d, l).find((x) => PRICE.test(x));
        if (price) prices.set(l.name, price);
        else missing.push(l.name);
      }
      // a price the tree dropped as repeated text: read it on the product's page, then come back
      for (const name of missing) {
        await d.click((x) => x.maybe((n) => isProductLink(x, n) && n.name === name), name);
        prices.set(name, productPagePrice(d));
        await d.act({ type: 'go_back' });
      }
      const last = links.at(-1);
      const seenAfter = prices.size > 0 && last !== undefined && !last.name.startsWith(`${brand} `);
      if (seenAfter || !d.byName('link', 'Next')) break;
      await nextPage(d, `${brand} products`);
    }
    if (prices.size === 0) throw new OracleError(`no ${brand} products in ${slot(t, 'category')}`);
    const all = [...prices.values()].map(cents);
    const fmt = (c: number) => `$${(c / 100).toFixed(2)}`;
    await d.stop(`${fmt(Math.min(...all))} - ${fmt(Math.max(...all))}`);
  },
  shop_add_to_cart: async (d, t) => {
    await openProduct(d, slot(t, 'product'));
    await addToCart(d, slot(t, 'qty'));
    await d.stop();
  },
  shop_reviewers_aspect: async (d, t) => {
    await openProduct(d, slot(t, 'product'));
    const aspect = slot(t, 'aspect').toLowerCase();
    const names: string[] = [];
    for (const a of d.nodes.filter((n) => n.role === 'article' && n.name.startsWith('Review by '))) {
      const texts = d.descendants(a).filter((n) => n.role === 'StaticText');
      const body = texts.at(-1)?.name ?? '';
      const author = a.name.slice('Review by '.length);
      if (body.toLowerCase().includes(aspect) && !names.includes(author)) names.push(author);
    }
    if (names.length === 0) throw new OracleError(`no review mentions ${aspect}`);
    await d.stop(names.join(', '));
  },
  shop_spent_in_month: async (d, t) => {
    const target = ym(`${slot(t, 'month').slice(0, 3)} 1, ${slot(t, 'year')}`);
    await openOrders(d);
    let total = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const rows = orderRows(d);
      for (const r of rows) if (ym(r.date) === target && r.status !== 'Canceled') total += cents(r.total);
      const last = rows.at(-1);
      if (!last || ym(last.date) < target || !d.byName('link', 'Next')) break;
      await nextPage(d, 'orders');
    }
    await d.stop(`$${(total / 100).toFixed(2)}`);
  },
  shop_order_contents: async (d, t) => {
    const id = slot(t, 'order');
    await openOrders(d);
    await findOrder(d, (r) => r.id === id, `order #${id}`);
    await openOrder(d, id);
    await d.stop(
      orderItems(d)
        .map((i) => i.name)
        .join('; '),
    );
  },
  shop_order_on_date: async (d, t) => {
    const date = slot(t, 'date');
    await openOrders(d);
    const row = await findOrder(d, (r) => r.date === date, `order of ${date}`);
    await d.stop(`${row.total}, ${row.status}`);
  },
  shop_write_review: async (d, t) => {
    const stars = slot(t, 'stars');
    await openProduct(d, slot(t, 'product'));
    await d.click((x) => x.byName('radio', stars === '1' ? '1 star' : `${stars} stars`), `${stars} stars`);
    await d.type((x) => x.byName('textbox', 'Nickname'), slot(t, 'nickname'), 'Nickname');
    await d.type((x) => x.byName('textbox', 'Summary'), slot(t, 'summary'), 'Summary');
    await d.type((x) => x.byName('textbox', 'Review'), slot(t, 'text'), 'Review');
    await d.click((x) => x.byName('button', 'Submit Review'), 'Submit Review');
    await d.stop();
  },
  shop_checkout: async (d, t) => {
    await openProduct(d, slot(t, 'product'));
    await addToCart(d, slot(t, 'qty'));
    await d.clickLink('Proceed to Checkout');
    const fields: Array<[string, string]> = [
      ['Street Address', slot(t, 'street')],
      ['City', slot(t, 'city')],
      ['State', slot(t, 'state')],
      ['Zip/Postal Code', slot(t, 'zip')],
    ];
    for (const [label, value] of fields) {
      const box = d.find((n) => n.role === 'textbox' && n.name === label, label);
      const shown = d.descendants(box).find((n) => n.role === 'StaticText')?.name;
      if (shown === value) continue;
      await d.type((x) => x.byName('textbox', label), value, label);
    }
    if (slot(t, 'shipping') === 'express')
      await d.click((x) => x.maybe((n) => n.role === 'radio' && n.name.startsWith('Express')), 'Express');
    await d.click((x) => x.byName('button', 'Place Order'), 'Place Order');
    await d.stop();
  },
  shop_reorder: async (d, t) => {
    const date = slot(t, 'date');
    await openOrders(d);
    const row = await findOrder(d, (r) => r.date === date, `order of ${date}`);
    await openOrder(d, row.id);
    const items = orderItems(d);
    if (items.length === 0) throw new OracleError('the order has no items');
    for (const item of items) {
      await openProduct(d, item.name);
      await addToCart(d, item.qty);
    }
    await d.stop();
  },
};
