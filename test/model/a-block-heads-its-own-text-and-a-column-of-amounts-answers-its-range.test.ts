// Two ways a page's structure reaches an answer (src/model/candidates.ts):
// - a block with no row above it (one review among many: "Review by X" over its heading, stars and
//   text) is its own row, so the reviewer's name is read with what the review says;
// - a column of amounts also answers with its lowest and highest ("$21.99 - $232.99"), over the
//   whole column and over the rows that mention the task.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCandidates, type PolicyInput } from '../../src/model/index.js';
import { columns, contextMatches } from './fixtures.js';

type Review = [reviewer: string, title: string, text: string];

function productPage(reviews: Review[]): PolicyInput['nodes'] {
  const rows: [number, string, string, number][] = [
    [1, 'RootWebArea', 'Fjordic Pro Tent · MiniShop', 0],
    [2, 'heading', 'Fjordic Pro Tent', 1],
    [3, 'StaticText', '$129.99', 1],
    [4, 'region', `Customer Reviews (${reviews.length})`, 1],
    [5, 'heading', `Customer Reviews (${reviews.length})`, 2],
  ];
  let id = 6;
  for (const [reviewer, title, text] of reviews)
    rows.push(
      [id++, 'article', `Review by ${reviewer}`, 2],
      [id++, 'heading', title, 3],
      [id++, 'StaticText', 'Rating: 4 out of 5 stars', 3],
      [id++, 'StaticText', 'posted Jul 30, 2023', 3],
      [id++, 'StaticText', text, 3],
    );
  return columns(rows);
}

const REVIEWS: Review[] = [
  ['Chloe Lindqvist', 'Love it', 'The durability surprised me after a wet week.'],
  ['Aaron Kim', 'Fine', 'Arrived on time and the color is as shown.'],
  ['Hugo Weber', 'Very happy', 'Great durability for the price I paid.'],
  ['Selin Haddad', 'Meh', 'Packaging was torn when it came.'],
  ['Ravi Ortega', 'Okay', 'Does what it says.'],
];

function input(intent: string, nodes: PolicyInput['nodes']): PolicyInput {
  return {
    intent,
    url: 'http://127.0.0.1/shop/product/1',
    nodes,
    history: [],
    step: 2,
    horizon: 10,
    note: null,
  };
}

test("a review's name is read with the review's own text, not its neighbours'", () => {
  const i = input('Which reviewers of the Fjordic Pro Tent mention durability?', productPage(REVIEWS));
  assert.ok(contextMatches(i, 'ANSWER [Review by Hugo Weber]').includes('durability'));
  assert.ok(contextMatches(i, 'ANSWER [Review by Chloe Lindqvist]').includes('durability'));
  assert.ok(!contextMatches(i, 'ANSWER [Review by Aaron Kim]').includes('durability'));
  // and the reviews that mention it are one answer
  const answers = buildCandidates(i).map((c) => c.action);
  assert.ok(answers.includes('ANSWER [Review by Chloe Lindqvist, Review by Hugo Weber]'), answers.join('\n'));
});

function listing(products: [name: string, price: string][]): PolicyInput['nodes'] {
  const rows: [number, string, string, number][] = [
    [1, 'RootWebArea', 'Sports & Outdoors · MiniShop', 0],
    [2, 'list', 'Products', 1],
  ];
  let id = 3;
  for (const [name, price] of products)
    rows.push([id++, 'listitem', '', 2], [id++, 'link', name, 3], [id++, 'StaticText', price, 3]);
  return columns(rows);
}

test('a column of amounts answers with its lowest and highest, over all rows and the rows the task names', () => {
  const nodes = listing([
    ['Granitea Trail Pack', '$125.99'],
    ['Granitea Camp Stove', '$21.99'],
    ['Lumora Kite', '$10.99'],
    ['Granitea Dome Tent', '$232.99'],
    ['Lumora Yoga Mat', '$54.99'],
  ]);
  const i = input('What is the price range of Granitea products in the Sports & Outdoors category?', nodes);
  const ranges = buildCandidates(i)
    .filter((c) => c.source === 'range')
    .map((c) => c.text);
  assert.ok(ranges.includes('$21.99 - $232.99'), ranges.join(' ; '));
  assert.ok(ranges.includes('$10.99 - $232.99'), ranges.join(' ; '));
  // names are no amounts: no range over them
  assert.ok(
    ranges.every((r) => /^\$[\d.]+ - \$[\d.]+$/.test(r)),
    ranges.join(' ; '),
  );
});
