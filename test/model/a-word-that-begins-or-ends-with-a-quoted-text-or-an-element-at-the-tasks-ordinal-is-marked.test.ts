// Three facts of src/model/encode.ts that no whole-word overlap sees: 'affix_of_task' (a suggestion
// that starts and ends with the task's quoted parts), 'ordinal_in_task' (the 3rd of several like
// elements) and the glyph token that keeps a folder's trailing "/" (two names that differ only by
// it encode differently).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeObservation, type PolicyInput, SCALAR_SIZE, SCALARS } from '../../src/model/index.js';
import { columns } from './fixtures.js';

type Row = Parameters<typeof columns>[0][number];

function input(intent: string, rows: Row[]): PolicyInput {
  // text fields take focus, so a click on one is offered (as MiniWoB++'s focus task needs)
  const nodes = { ...columns(rows), focusable: rows.map((r) => (r[1] === 'textbox' ? 1 : 0)) };
  return { intent, url: 'http://127.0.0.1/page', nodes, history: [], step: 0, horizon: 10, note: null };
}

function scalar(name: (typeof SCALARS)[number], x: PolicyInput): Map<string, number> {
  const at = SCALARS.indexOf(name);
  assert.ok(at >= 0, name);
  const e = encodeObservation(x, { buckets: 1024 });
  return new Map(e.candidates.map((c, k) => [c.action, e.scalars[k * SCALAR_SIZE + at]!]));
}

test('a suggestion that begins with one quoted text and ends with the other is marked above one that only begins with it', () => {
  const x = input('Enter an item that starts with "Mar" and ends with "ld", then press Submit.', [
    [1, 'RootWebArea', 'Autocomplete', 0],
    [2, 'textbox', 'Tags:', 1],
    [3, 'link', 'Marble', 1],
    [4, 'link', 'Marigold', 1],
    [5, 'link', 'Pelican', 1],
    [6, 'button', 'Submit', 1],
  ]);
  const f = scalar('affix_of_task', x);
  assert.equal(f.get('Click [4]'), 1);
  assert.equal(f.get('Click [3]'), 0.5);
  assert.equal(f.get('Click [5]'), 0);
  // a whole-word match is the overlap facts' part, not an affix
  assert.equal(f.get('Click [6]'), 0);
});

test("the task's ordinal marks the element at that place among its like, and nothing when there is one of a kind", () => {
  const rows: Row[] = [
    [1, 'RootWebArea', 'Focus', 0],
    [2, 'textbox', '', 1],
    [3, 'textbox', '', 1],
    [4, 'textbox', '', 1],
    [5, 'button', 'Submit', 1],
  ];
  const f = scalar('ordinal_in_task', input('Focus into the 3rd input textbox.', rows));
  assert.equal(f.get('Click [4]'), 1);
  assert.equal(f.get('Click [2]'), 0);
  assert.equal(f.get('Click [3]'), 0);
  const second = scalar('ordinal_in_task', input('Focus into the second input textbox.', rows));
  assert.equal(second.get('Click [3]'), 1);
  // the only button is first of one: no place to speak of
  assert.equal(scalar('ordinal_in_task', input('Click the first button.', rows)).get('Click [5]'), 0);
  // no ordinal, no mark
  assert.equal(scalar('ordinal_in_task', input('Focus into the input textbox.', rows)).get('Click [4]'), 0);
});

test('results under one parent are counted among their siblings: the 2nd result link, whatever its name', () => {
  const x = input('Search for "Inga", then find and click the 2nd search result.', [
    [1, 'RootWebArea', 'Search', 0],
    [2, 'searchbox', 'Search terms', 1],
    [3, 'button', 'Search', 1],
    [4, 'generic', '', 1],
    [5, 'link', 'Inga apple', 2],
    [6, 'link', 'Inga pear', 2],
    [7, 'link', 'Inga plum', 2],
  ]);
  const f = scalar('ordinal_in_task', x);
  assert.equal(f.get('Click [6]'), 1);
  assert.equal(f.get('Click [5]'), 0);
  assert.equal(f.get('Click [7]'), 0);
});

test("a folder's trailing '/' reaches the element's tokens; a sentence's full stop does not", () => {
  const self = (name: string): number[] => {
    const e = encodeObservation(
      input('Find the file "Ulric".', [
        [1, 'RootWebArea', 'Tree', 0],
        [2, 'link', name, 1],
      ]),
      { buckets: 1 << 20 },
    );
    const k = e.candidates.findIndex((c) => c.action === 'Click [2]');
    const { tok, off } = e.bags.self;
    return [...tok.subarray(off[k]!, off[k + 1]!)].sort();
  };
  assert.notDeepEqual(self('Kasey/'), self('Kasey'));
  assert.deepEqual(self('Kasey.'), self('Kasey'));
});
