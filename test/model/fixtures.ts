// Small synthetic observations for the model's tests: a shop listing with a search box, product
// rows (link, price, button) and a pager below the fold.
import assert from 'node:assert/strict';
import { encodeObservation, type NodeColumns, type PolicyInput } from '../../src/model/index.js';

type Row = [id: number, role: string, name: string, depth: number, inViewport?: number];

export function columns(rows: Row[]): NodeColumns {
  return {
    ids: rows.map((r) => r[0]),
    roles: rows.map((r) => r[1]),
    names: rows.map((r) => r[2]),
    depths: rows.map((r) => r[3]),
    inViewport: rows.map((r) => r[4] ?? 1),
  };
}

export const PRODUCTS = [
  ['Blue Mug', '$12.50'],
  ['Red Kettle', '$40.00'],
  ['Green Teapot', '$25.99'],
  ['Steel Spoon Set', '$8.75'],
] as const;

/** A shop listing page: header, search box, the products, a "Next" link out of view. */
export function shopPage(products: readonly (readonly [string, string])[] = PRODUCTS): NodeColumns {
  const rows: Row[] = [
    [1, 'RootWebArea', 'One Stop Market', 0],
    [2, 'link', 'Home', 1],
    [3, 'link', 'My Account', 1],
    [4, 'searchbox', 'Search products', 1],
    [5, 'button', 'Search', 1],
    [6, 'heading', 'All products', 1],
    [7, 'list', '', 1],
  ];
  let id = 10;
  for (const [name, price] of products) {
    rows.push(
      [id++, 'listitem', '', 2],
      [id++, 'link', name, 3],
      [id++, 'StaticText', price, 3],
      [id++, 'button', 'Add to Cart', 3],
    );
  }
  rows.push([id++, 'link', 'Next', 1, 0]);
  return columns(rows);
}

export function input(overrides: Partial<PolicyInput> = {}): PolicyInput {
  return {
    intent: 'What is the price of Blue Mug?',
    url: 'http://127.0.0.1:7770/shop/search?q=mug',
    nodes: shopPage(),
    history: [],
    step: 0,
    horizon: 10,
    note: null,
    ...overrides,
  };
}

/** The task words that a candidate's context matches exactly (matchContext holds flat indices c·T + j). */
export function contextMatches(input: PolicyInput, action: string): string[] {
  const e = encodeObservation(input, { buckets: 1024 });
  const k = e.candidates.findIndex((c) => c.action === action);
  assert.ok(k >= 0, `no candidate ${action}`);
  const words = [...input.intent.matchAll(/[A-Za-z0-9]+(?:[.'][A-Za-z0-9]+)*/g)].map((m) => m[0]);
  return [...e.matchContext]
    .filter((f) => Math.floor(f / e.T) === k)
    .map((f) => words[f % e.T]!.toLowerCase());
}
