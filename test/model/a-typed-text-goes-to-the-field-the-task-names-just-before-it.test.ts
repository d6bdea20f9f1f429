// The feature 'argument_after_field_word' (src/model/encode.ts): which field a text goes to is said
// by the word before it in the task ("the username "bob" and the password "x1""), which the
// overlap counts do not see: both texts are in the task, and both fields' names are too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeObservation, type PolicyInput, SCALAR_SIZE, SCALARS } from '../../src/model/index.js';
import { columns } from './fixtures.js';

const FEATURE = SCALARS.indexOf('argument_after_field_word');

function featureOf(input: PolicyInput): Map<string, number> {
  const e = encodeObservation(input, { buckets: 1024 });
  return new Map(e.candidates.map((c, k) => [c.action, e.scalars[k * SCALAR_SIZE + FEATURE]!]));
}

test('a login form: each text is marked for the field whose name stands before it in the task, not the other', () => {
  const nodes = columns([
    [1, 'RootWebArea', 'Log in', 0],
    [2, 'StaticText', 'Username', 1],
    [3, 'textbox', 'Username', 1],
    [4, 'StaticText', 'Password', 1],
    [5, 'textbox', 'Password', 1],
    [6, 'button', 'Login', 1],
  ]);
  const f = featureOf({
    intent: 'Enter the username "kasey" and the password "Xu8b" into the text fields and press login.',
    url: 'http://127.0.0.1/login',
    nodes,
    history: [],
    step: 0,
    horizon: 10,
    note: null,
  });
  assert.ok(FEATURE >= 0);
  assert.equal(f.get('Type [3] [kasey]'), 1);
  assert.equal(f.get('Type [5] [Xu8b]'), 1);
  assert.equal(f.get('Type [5] [kasey]'), 0);
  assert.equal(f.get('Type [3] [Xu8b]'), 0);
  // other kinds never carry it
  assert.equal(f.get('Click [6]'), 0);
});

test('a search box whose name is the verb before the query is marked too; a text far from any field word is not', () => {
  const nodes = columns([
    [1, 'RootWebArea', 'Shop', 0],
    [2, 'searchbox', 'Search products', 1],
    [4, 'StaticText', 'Coupon code', 1],
    [3, 'textbox', 'Coupon code', 1],
  ]);
  const input = (intent: string): PolicyInput => ({
    intent,
    url: 'http://127.0.0.1/shop',
    nodes,
    history: [],
    step: 0,
    horizon: 10,
    note: null,
  });
  const f = featureOf(input('Search for "blue mug" in the shop'));
  assert.equal(f.get('Type [2] [blue mug]'), 1);
  assert.equal(f.get('Type [3] [blue mug]'), 0);
});
