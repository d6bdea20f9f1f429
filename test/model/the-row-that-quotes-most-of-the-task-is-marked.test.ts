// A product named in full and another named by its prefix are both "inside" the task ("What is the
// price of Halcyra Everyday Beanie Plus?" quotes "Halcyra Everyday Beanie" too); the scalar
// inside_is_most (src/model/encode.ts) marks the candidates whose row quotes most of it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeObservation, type PolicyInput, SCALAR_SIZE, SCALARS } from '../../src/model/index.js';
import { columns } from './fixtures.js';

function listing(products: [string, string][]): PolicyInput['nodes'] {
  const rows: [number, string, string, number][] = [
    [1, 'RootWebArea', "Search results for 'Halcyra Everyday Beanie Plus' · MiniShop", 0],
    [2, 'list', 'Products', 1],
  ];
  let id = 3;
  for (const [name, price] of products)
    rows.push(
      [id++, 'link', name, 2],
      [id++, 'StaticText', price, 2],
      [id++, 'StaticText', 'Rating: 4 out of 5', 2],
    );
  return columns(rows);
}

test('the price in the row that names the whole product is marked, not the one naming its prefix', () => {
  const input: PolicyInput = {
    intent: 'What is the price of Halcyra Everyday Beanie Plus?',
    url: 'http://127.0.0.1/shop/search?q=Halcyra',
    nodes: listing([
      ['Halcyra Everyday Beanie', '$115.99'],
      ['Halcyra Everyday Beanie Plus', '$58.99'],
      ['Halcyra Trail Socks', '$12.99'],
    ]),
    history: [],
    step: 1,
    horizon: 10,
    note: null,
  };
  const e = encodeObservation(input, { buckets: 1024 });
  const at = SCALARS.indexOf('inside_is_most');
  const mark = (action: string) => {
    const k = e.candidates.findIndex((c) => c.action === action);
    assert.ok(k >= 0, `no candidate ${action}`);
    return e.scalars[k * SCALAR_SIZE + at];
  };
  assert.equal(mark('ANSWER [$58.99]'), 1);
  assert.equal(mark('ANSWER [$115.99]'), 0);
  assert.equal(mark('ANSWER [$12.99]'), 0);
});
