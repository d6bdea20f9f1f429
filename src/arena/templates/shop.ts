import { displayDate, money, monthName } from '../format.js';
import {
  ORDERS_PAGE_SIZE,
  type Order,
  ordersOf,
  type Product,
  SHOP_PAGE_SIZE,
  SHOP_USER,
  type ShopState,
  searchProducts,
  sortProducts,
} from '../sites/shop/data.js';
import { CITIES, REVIEW_ASPECTS, STREETS } from '../words.js';
import {
  type Instance,
  jsString,
  pageOf,
  programHtml,
  type SiteRequest,
  stringMatch,
  type Template,
  urlMatch,
} from './types.js';

const S = '__SHOPPING__';
const productUrl = (p: Product) => `${S}/product/${p.slug}`;
const price = (cents: number) => money(cents).slice(1);

/** The add-to-cart form's request. */
const cartAdd = (productId: number, qty: number): SiteRequest => ({
  url: `${S}/cart/add`,
  post_data: { product_id: String(productId), qty: String(qty) },
});

const CART_LINES =
  "[...document.querySelectorAll('.cart-item')].map(r => r.querySelector('.cart-item-name').textContent + ' x ' + r.querySelector('.cart-qty').textContent).join('; ') + ';'";

/** Products whose own name finds them first in search (no look-alike outranks them). */
const uniqueCache = new WeakMap<ShopState, Product[]>();
function uniquelyFound(st: ShopState): Product[] {
  let out = uniqueCache.get(st);
  if (!out) {
    out = st.products.filter((p) => searchProducts(st, p.name)[0]?.id === p.id);
    uniqueCache.set(st, out);
  }
  return out;
}

/** Products that a look-alike outranks in search: the first result is the wrong product. */
function outranked(st: ShopState): Array<{ p: Product; position: number }> {
  return st.products.flatMap((p) => {
    const results = searchProducts(st, p.name);
    const position = results.findIndex((x) => x.id === p.id);
    return position > 0 ? [{ p, position }] : [];
  });
}

/** Steps to open a product from the home page by searching its name. */
const stepsCache = new WeakMap<ShopState, Map<number, number>>();
function stepsToProduct(st: ShopState, p: Product): number {
  let m = stepsCache.get(st);
  if (!m) {
    m = new Map();
    stepsCache.set(st, m);
  }
  let steps = m.get(p.id);
  if (steps === undefined) {
    const position = searchProducts(st, p.name).findIndex((x) => x.id === p.id);
    steps = 2 + (position >= SHOP_PAGE_SIZE ? pageOf(position, SHOP_PAGE_SIZE) - 1 : 0);
    m.set(p.id, steps);
  }
  return steps;
}

function orderPage(st: ShopState, o: Order): number {
  return pageOf(
    ordersOf(st, SHOP_USER).findIndex((x) => x.id === o.id),
    ORDERS_PAGE_SIZE,
  );
}

const REVIEW_SUMMARIES = [
  'Solid pick',
  'Not bad at all',
  'Pleasantly surprised',
  'Does the job',
  'A bit pricey',
  'My new favourite',
];
const REVIEW_BODIES = [
  'Sturdy and easy to use',
  'Arrived quickly and works well',
  'Smaller than expected but fine',
  'Great quality for the money',
  'Would recommend to a friend',
];
const NICKNAMES = ['Emma L.', 'EmmaShops', 'E. Lopes', 'Portland Emma'];

export const shopTemplates: Template[] = [
  {
    id: 1001,
    key: 'shop_price',
    site: 'shopping',
    intent: 'What is the price of {{product}}?',
    tier: 1,
    instances: (w) =>
      uniquelyFound(w.shop).map(
        (p): Instance => ({
          dict: { product: p.name },
          start_url: S,
          eval: stringMatch({ must_include: [price(p.price)] }, money(p.price)),
          steps: stepsToProduct(w.shop, p) + 1,
          evidence: [productUrl(p)],
        }),
      ),
  },
  {
    id: 1002,
    key: 'shop_price_lookalike',
    site: 'shopping',
    intent: 'How much does the {{product}} cost? I need the exact product, not a similar one.',
    tier: 1,
    instances: (w) =>
      outranked(w.shop).map(
        ({ p }): Instance => ({
          dict: { product: p.name },
          start_url: S,
          eval: stringMatch({ must_include: [price(p.price)] }, money(p.price)),
          steps: stepsToProduct(w.shop, p) + 1,
          features: ['misleading-first-result'],
          evidence: [productUrl(p)],
        }),
      ),
  },
  {
    id: 1003,
    key: 'shop_sku',
    site: 'shopping',
    intent: 'What is the SKU of the {{product}}?',
    tier: 1,
    instances: (w) =>
      w.shop.products.map(
        (p): Instance => ({
          dict: { product: p.name },
          start_url: productUrl(p),
          eval: stringMatch({ exact_match: p.sku }, p.sku),
          steps: 1,
          evidence: [productUrl(p)],
        }),
      ),
  },
  {
    id: 1004,
    key: 'shop_review_count',
    site: 'shopping',
    intent: 'How many customer reviews does {{product}} have?',
    tier: 1,
    instances: (w) =>
      uniquelyFound(w.shop).map((p): Instance => {
        const n = w.shop.reviews.filter((r) => r.productId === p.id).length;
        return {
          dict: { product: p.name },
          start_url: S,
          eval: stringMatch({ must_include: [String(n)] }, String(n)),
          steps: stepsToProduct(w.shop, p) + 1,
          evidence: [productUrl(p)],
        };
      }),
  },
  {
    id: 1005,
    key: 'shop_category_sorted',
    site: 'shopping',
    intent: 'Show me the products in the {{category}} category sorted by price, {{order}}',
    tier: 1,
    instances: (w) =>
      w.shop.categories.flatMap((c) =>
        (
          [
            ['lowest first', 'price_asc'],
            ['highest first', 'price_desc'],
          ] as const
        ).map(
          ([order, sort]): Instance => ({
            dict: { category: c.name, order },
            start_url: S,
            eval: urlMatch(`${S}/category/${c.slug}?sort=${sort}`),
            steps: 3,
          }),
        ),
      ),
  },
  {
    id: 1006,
    key: 'shop_brand_price_range',
    site: 'shopping',
    intent: 'What is the price range of {{brand}} products in the {{category}} category?',
    tier: 2,
    instances: (w) =>
      w.shop.categories.flatMap((c) => {
        const byName = sortProducts(
          w.shop,
          w.shop.products.filter((p) => p.category === c.slug),
          'name_asc',
        );
        const brands = [...new Set(byName.map((p) => p.brand))].sort();
        return brands.flatMap((brand): Instance[] => {
          const items = byName.filter((p) => p.brand === brand);
          if (items.length < 2) return [];
          const prices = items.map((p) => p.price);
          const lo = Math.min(...prices);
          const hi = Math.max(...prices);
          if (lo === hi) return [];
          const first = pageOf(byName.indexOf(items[0] as Product), SHOP_PAGE_SIZE);
          const last = pageOf(byName.indexOf(items[items.length - 1] as Product), SHOP_PAGE_SIZE);
          return [
            {
              dict: { brand, category: c.name },
              start_url: S,
              eval: stringMatch({ must_include: [price(lo), price(hi)] }, `${money(lo)} - ${money(hi)}`),
              steps: 3 + (last - 1),
              features: last > first ? ['facts-on-several-pages'] : last > 1 ? ['second-page'] : [],
              evidence: items.filter((p) => p.price === lo || p.price === hi).map(productUrl),
            },
          ];
        });
      }),
  },
  {
    id: 1007,
    key: 'shop_add_to_cart',
    site: 'shopping',
    intent: 'Put {{qty}} of the {{product}} in my shopping cart',
    tier: 2,
    instances: (w, rng) =>
      w.shop.products.map((p): Instance => {
        const qty = rng.pick([1, 1, 2, 3]);
        return {
          dict: { qty, product: p.name },
          start_url: S,
          eval: programHtml([
            {
              url: `${S}/cart`,
              locator: CART_LINES,
              required_contents: { must_include: [`${p.name} x ${qty};`] },
            },
          ]),
          // typing a quantity (with Enter) submits the add-to-cart form, as clicking Add to Cart does
          steps: stepsToProduct(w.shop, p) + 2,
          features:
            p.variantOf === null && searchProducts(w.shop, p.name)[0]?.id !== p.id
              ? ['misleading-first-result']
              : [],
          mutates: true,
          network: [cartAdd(p.id, qty)],
        };
      }),
  },
  {
    id: 1008,
    key: 'shop_reviewers_aspect',
    site: 'shopping',
    intent: 'Which reviewers of the {{product}} mention {{aspect}}?',
    tier: 2,
    instances: (w) =>
      uniquelyFound(w.shop).flatMap((p) =>
        REVIEW_ASPECTS.flatMap((aspect): Instance[] => {
          const names = [
            ...new Set(
              w.shop.reviews
                .filter((r) => r.productId === p.id && r.body.toLowerCase().includes(aspect))
                .map((r) => r.author),
            ),
          ];
          if (names.length === 0) return [];
          return [
            {
              dict: { product: p.name, aspect },
              start_url: S,
              eval: stringMatch({ must_include: names }, names.join(', ')),
              steps: stepsToProduct(w.shop, p) + 2,
              evidence: [productUrl(p)],
            },
          ];
        }),
      ),
  },
  {
    id: 1009,
    key: 'shop_spent_in_month',
    site: 'shopping',
    intent: 'How much did I spend on orders placed in {{month}} {{year}}, not counting canceled orders?',
    tier: 2,
    instances: (w) => {
      const orders = ordersOf(w.shop, SHOP_USER);
      const months = [...new Set(orders.map((o) => o.date.slice(0, 7)))].sort();
      return months.flatMap((ym): Instance[] => {
        const inMonth = orders.filter((o) => o.date.startsWith(ym));
        const total = inMonth.filter((o) => o.status !== 'Canceled').reduce((s, o) => s + o.total, 0);
        if (total >= 100_000) return [];
        const pages = [...new Set(inMonth.map((o) => orderPage(w.shop, o)))];
        const last = Math.max(...pages);
        return [
          {
            dict: { month: monthName(Number(ym.slice(5))), year: Number(ym.slice(0, 4)) },
            start_url: S,
            eval: stringMatch({ must_include: [price(total)] }, money(total)),
            steps: 2 + (last - 1),
            features: [
              ...(pages.length > 1 ? (['facts-on-several-pages'] as const) : []),
              ...(last > 1 ? (['second-page'] as const) : []),
            ],
          },
        ];
      });
    },
  },
  {
    id: 1010,
    key: 'shop_order_contents',
    site: 'shopping',
    intent: 'Which products did I buy in order #{{order}}?',
    tier: 2,
    instances: (w) =>
      ordersOf(w.shop, SHOP_USER).map((o): Instance => {
        const page = orderPage(w.shop, o);
        return {
          dict: { order: o.id },
          start_url: S,
          eval: stringMatch(
            { must_include: o.items.map((i) => i.name) },
            o.items.map((i) => i.name).join('; '),
          ),
          steps: 3 + (page - 1),
          features: page > 1 ? ['second-page'] : [],
          evidence: [`${S}/orders/${o.id}`],
        };
      }),
  },
  {
    id: 1011,
    key: 'shop_order_on_date',
    site: 'shopping',
    intent: 'What was the grand total of the order I placed on {{date}}, and what was its status?',
    tier: 2,
    instances: (w) => {
      const orders = ordersOf(w.shop, SHOP_USER);
      return orders.flatMap((o): Instance[] => {
        if (orders.filter((x) => x.date === o.date).length > 1) return [];
        const page = orderPage(w.shop, o);
        return [
          {
            dict: { date: displayDate(o.date) },
            start_url: S,
            eval: stringMatch(
              { must_include: [price(o.total), o.status.toLowerCase()] },
              `${money(o.total)}, ${o.status}`,
            ),
            steps: 2 + (page - 1),
            features: page > 1 ? ['second-page'] : [],
            evidence: [`${S}/orders/${o.id}`],
          },
        ];
      });
    },
  },
  {
    id: 1012,
    key: 'shop_write_review',
    site: 'shopping',
    intent:
      'Write a {{stars}}-star review of the {{product}} with the summary "{{summary}}" and the text "{{text}}", signed with the nickname {{nickname}}',
    tier: 2,
    instances: (w, rng) =>
      uniquelyFound(w.shop).map((p): Instance => {
        const stars = rng.int(1, 5);
        const summary = rng.pick(REVIEW_SUMMARIES);
        const text = rng.pick(REVIEW_BODIES);
        const nickname = rng.pick(NICKNAMES);
        const locator = `[...document.querySelectorAll('.review-item')].filter(e => e.querySelector('.review-title').textContent === ${jsString(summary)}).map(e => e.querySelector('.review-author strong').textContent + ' | ' + e.querySelector('.review-rating').textContent + ' | ' + e.querySelector('.review-content').textContent).join('\\n')`;
        return {
          dict: { stars, product: p.name, summary, text, nickname },
          start_url: S,
          eval: programHtml([
            {
              url: productUrl(p),
              locator,
              required_contents: { must_include: [nickname, `Rating: ${stars} out of 5 stars`, text] },
            },
          ]),
          steps: stepsToProduct(w.shop, p) + 6,
          features: ['form'],
          mutates: true,
          network: [
            {
              url: `${productUrl(p)}/review`,
              post_data: { rating: String(stars), nickname, title: summary, body: text },
            },
          ],
        };
      }),
  },
  {
    id: 1013,
    key: 'shop_checkout',
    site: 'shopping',
    intent:
      'Buy {{qty}} of the {{product}} with {{shipping}} shipping, delivered to {{street}}, {{city}}, {{state}} {{zip}}',
    tier: 3,
    instances: (w, rng) =>
      uniquelyFound(w.shop).map((p): Instance => {
        const qty = rng.pick([1, 2, 3]);
        const shipping = rng.pick(['standard', 'express'] as const);
        const [city, state] = rng.pick(CITIES);
        const street = `${rng.int(10, 9999)} ${rng.pick(STREETS)}`;
        const zip = String(rng.int(10000, 99999));
        const fee = shipping === 'express' ? 1500 : 500;
        const url = `${S}/orders/${w.shop.nextOrderId}`;
        return {
          dict: { qty, product: p.name, shipping, street, city, state, zip },
          start_url: S,
          eval: programHtml([
            {
              url,
              locator: "document.querySelector('.order-items tbody').innerText",
              required_contents: { must_include: [p.name, money(p.price)] },
            },
            {
              url,
              locator:
                "[...document.querySelectorAll('.order-items tbody td:nth-child(3)')].map(e => e.textContent).join(',')",
              required_contents: { exact_match: String(qty) },
            },
            {
              url,
              locator: "document.querySelector('.order-address').innerText",
              required_contents: { must_include: [street, city, state, zip] },
            },
            { url, locator: '', required_contents: { must_include: [`Shipping & Handling: ${money(fee)}`] } },
          ]),
          // search, open, qty-or-add, checkout, 4 address fields (the name is prefilled), (express), place, stop
          steps: stepsToProduct(w.shop, p) + 1 + 1 + 4 + (shipping === 'express' ? 1 : 0) + 1 + 1,
          features: ['form'],
          mutates: true,
          network: [
            { url: `${S}/cart/add`, post_data: { product_id: String(p.id) } },
            { url: `${S}/checkout`, post_data: { street, city, state, zip, shipping } },
          ],
        };
      }),
  },
  {
    id: 1014,
    key: 'shop_reorder',
    site: 'shopping',
    intent: 'Add everything from the order I placed on {{date}} to my cart again, in the same quantities',
    tier: 3,
    instances: (w) => {
      const orders = ordersOf(w.shop, SHOP_USER);
      return orders.flatMap((o): Instance[] => {
        if (o.items.length < 3 || orders.filter((x) => x.date === o.date).length > 1) return [];
        const page = orderPage(w.shop, o);
        const perItem = o.items.reduce((s, i) => {
          const p = w.shop.products.find((x) => x.id === i.productId);
          return s + (p ? stepsToProduct(w.shop, p) : 2) + 1;
        }, 0);
        return [
          {
            dict: { date: displayDate(o.date) },
            start_url: S,
            eval: programHtml([
              {
                url: `${S}/cart`,
                locator: CART_LINES,
                required_contents: { must_include: o.items.map((i) => `${i.name} x ${i.qty};`) },
              },
            ]),
            steps: 2 + (page - 1) + perItem + 1,
            features: ['backtracking', ...(page > 1 ? (['second-page'] as const) : [])],
            mutates: true,
            network: o.items.map((i) => ({ ...cartAdd(i.productId, i.qty), several: true })),
          },
        ];
      });
    },
  },
];
