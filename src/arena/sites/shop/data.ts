import type { SeededRandom } from '../../../util/index.js';
import { dayOf, isoDate, slugify } from '../../format.js';
import {
  BRANDS,
  CATEGORIES,
  CITIES,
  COLORS,
  FIRST_NAMES,
  LAST_NAMES,
  PRODUCT_ADJ,
  REVIEW_ASPECTS,
  REVIEW_BAD,
  REVIEW_FILLER,
  REVIEW_GOOD,
  REVIEW_TITLES_BAD,
  REVIEW_TITLES_GOOD,
  STREETS,
} from '../../words.js';

export interface Category {
  slug: string;
  name: string;
}
export interface Product {
  id: number;
  sku: string;
  name: string;
  slug: string;
  brand: string;
  category: string;
  price: number;
  color: string;
  description: string;
  /** Id of the product this one is a look-alike of (ranks first in search for the other's name). */
  variantOf: number | null;
}
export interface Review {
  id: number;
  productId: number;
  author: string;
  rating: number;
  title: string;
  body: string;
  date: string;
}
export interface Address {
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
}
export interface OrderItem {
  productId: number;
  name: string;
  qty: number;
  price: number;
}
export interface Order {
  id: number;
  user: string;
  date: string;
  status: 'Complete' | 'Canceled' | 'Pending' | 'Processing';
  items: OrderItem[];
  shipping: number;
  total: number;
  address: Address;
}
export interface ShopUser {
  email: string;
  password: string;
  fullName: string;
  address: Address;
}
export interface CartLine {
  productId: number;
  qty: number;
}
export interface ShopState {
  categories: Category[];
  products: Product[];
  reviews: Review[];
  users: ShopUser[];
  carts: Record<string, CartLine[]>;
  orders: Order[];
  nextOrderId: number;
  nextReviewId: number;
  /** Logical clock (days since epoch) for orders and reviews made at run time. */
  today: number;
}

export const SHOP_USER = 'emma.lopes@hotmail.com';
export const SHOP_PASSWORD = 'Password.123';
export const SHOP_PAGE_SIZE = 12;
export const ORDERS_PAGE_SIZE = 10;
export const SHIPPING = { standard: 500, express: 1500 } as const;

export function generateShop(rng: SeededRandom): ShopState {
  const categories = CATEGORIES.map((c) => ({ slug: slugify(c.name), name: c.name }));
  const products: Product[] = [];
  const names = new Set<string>();
  const reviews: Review[] = [];
  const start = dayOf('2022-01-01');
  const addReviews = (p: Product, n: number) => {
    for (let i = 0; i < n; i++) {
      const rating = rng.chance(0.7) ? rng.int(4, 5) : rng.int(1, 3);
      const good = rating >= 4;
      const aspect = rng.pick(REVIEW_ASPECTS);
      const body = `${rng.pick(REVIEW_FILLER)} ${aspect[0]?.toUpperCase()}${aspect.slice(1)} ${rng.pick(good ? REVIEW_GOOD : REVIEW_BAD)}.`;
      reviews.push({
        id: reviews.length + 1,
        productId: p.id,
        author: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
        rating,
        title: rng.pick(good ? REVIEW_TITLES_GOOD : REVIEW_TITLES_BAD),
        body,
        date: isoDate(start + rng.int(0, 700)),
      });
    }
  };
  const makeProduct = (catIndex: number, name: string, brand: string, variantOf: number | null): Product => {
    const spec = CATEGORIES[catIndex];
    if (!spec) throw new Error('bad category');
    const id = products.length + 1;
    const cents = Math.round(rng.int(spec.price[0], spec.price[1]) / 100) * 100 - 1;
    const p: Product = {
      id,
      sku: `MA-${String(1000 + id * 7).padStart(5, '0')}`,
      name,
      slug: `${slugify(name)}-${id}`,
      brand,
      category: slugify(spec.name),
      price: Math.max(99, cents),
      color: rng.pick(COLORS),
      description: `The ${name} by ${brand}. ${rng.pick(['Designed for daily use.', 'Built to last.', 'A customer favourite.', 'Lightweight and easy to clean.', 'Backed by a one-year warranty.'])}`,
      variantOf,
    };
    products.push(p);
    names.add(name);
    return p;
  };
  for (let c = 0; c < CATEGORIES.length; c++) {
    const spec = CATEGORIES[c];
    if (!spec) continue;
    for (let k = 0; k < 34; k++) {
      let name = '';
      let brand = '';
      for (let tries = 0; tries < 50; tries++) {
        brand = rng.pick(BRANDS);
        name = `${brand} ${rng.pick(PRODUCT_ADJ)} ${rng.pick(spec.nouns)}`;
        if (!names.has(name) && !names.has(`${name} Plus`)) break;
        name = '';
      }
      if (!name) continue;
      const p = makeProduct(c, name, brand, null);
      addReviews(p, rng.int(0, 4));
      // Some products get a look-alike "Plus" with more reviews: it ranks first when searching the original's name.
      if (rng.chance(0.12)) {
        const v = makeProduct(c, `${name} Plus`, brand, p.id);
        addReviews(v, rng.int(5, 8));
      }
    }
  }
  const fullName = 'Emma Lopes';
  const [city, state] = CITIES[0] ?? ['Portland', 'OR'];
  const address: Address = { name: fullName, street: '1420 Maple Ave', city, state, zip: '97205' };
  const users: ShopUser[] = [{ email: SHOP_USER, password: SHOP_PASSWORD, fullName, address }];
  const orders: Order[] = [];
  const orderDays = Array.from({ length: 26 }, () => start + rng.int(0, 720)).sort((a, b) => a - b);
  let id = 150;
  for (const day of orderDays) {
    const items: OrderItem[] = rng.sample(products, rng.int(1, 4)).map((p) => ({
      productId: p.id,
      name: p.name,
      qty: rng.chance(0.8) ? 1 : rng.int(2, 3),
      price: p.price,
    }));
    const sub = items.reduce((s, i) => s + i.qty * i.price, 0);
    const shipping = rng.chance(0.8) ? SHIPPING.standard : SHIPPING.express;
    const ship = rng.chance(0.85)
      ? address
      : (() => {
          const [c2, s2] = rng.pick(CITIES);
          return {
            name: fullName,
            street: `${rng.int(10, 999)} ${rng.pick(STREETS)}`,
            city: c2,
            state: s2,
            zip: String(rng.int(10000, 99999)),
          };
        })();
    orders.push({
      id: id++,
      user: SHOP_USER,
      date: isoDate(day),
      status: rng.chance(0.15) ? 'Canceled' : 'Complete',
      items,
      shipping,
      total: sub + shipping,
      address: ship,
    });
  }
  return {
    categories,
    products,
    reviews,
    users,
    carts: {},
    orders,
    nextOrderId: id,
    nextReviewId: reviews.length + 1,
    today: dayOf('2024-03-01'),
  };
}

export function productRating(state: ShopState, productId: number): { avg: number; count: number } {
  const rs = state.reviews.filter((r) => r.productId === productId);
  if (rs.length === 0) return { avg: 0, count: 0 };
  const avg = Math.round((rs.reduce((s, r) => s + r.rating, 0) / rs.length) * 10) / 10;
  return { avg, count: rs.length };
}

export type ShopSort = 'relevance' | 'position' | 'price_asc' | 'price_desc' | 'name_asc' | 'rating_desc';

function tokens(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^a-z0-9&-]+/)
    .filter((t) => t.length > 0);
}

/** Search: a product matches when any query token is in its name or brand; relevance = tokens matched, then reviews. */
export function searchProducts(state: ShopState, query: string): Product[] {
  const q = tokens(query);
  if (q.length === 0) return [];
  const counts = reviewCounts(state);
  const scored: Array<{ p: Product; score: number }> = [];
  for (const p of state.products) {
    const hay = new Set(tokens(`${p.name} ${p.brand}`));
    const score = q.filter((t) => hay.has(t)).length;
    if (score > 0) scored.push({ p, score });
  }
  scored.sort(
    (a, b) => b.score - a.score || (counts.get(b.p.id) ?? 0) - (counts.get(a.p.id) ?? 0) || a.p.id - b.p.id,
  );
  return scored.map((s) => s.p);
}

export function reviewCounts(state: ShopState): Map<number, number> {
  const m = new Map<number, number>();
  for (const r of state.reviews) m.set(r.productId, (m.get(r.productId) ?? 0) + 1);
  return m;
}

export function sortProducts(state: ShopState, items: Product[], sort: ShopSort): Product[] {
  const out = items.slice();
  switch (sort) {
    case 'price_asc':
      return out.sort((a, b) => a.price - b.price || a.id - b.id);
    case 'price_desc':
      return out.sort((a, b) => b.price - a.price || a.id - b.id);
    case 'name_asc':
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    case 'rating_desc': {
      const r = new Map(out.map((p) => [p.id, productRating(state, p.id).avg]));
      return out.sort((a, b) => (r.get(b.id) ?? 0) - (r.get(a.id) ?? 0) || a.id - b.id);
    }
    default:
      return out;
  }
}

export function ordersOf(state: ShopState, user: string): Order[] {
  return state.orders
    .filter((o) => o.user === user)
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id));
}
