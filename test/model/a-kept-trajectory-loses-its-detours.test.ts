// Before filtered BC, a kept trajectory loses its detours: steps that leave a page and come back
// to it through links, going back, scrolling or searching. Steps that may change the sites'
// state (a button, a form field) are never cut, nor is scrolling that never leaves the page, nor a
// detour whose return is followed by "back" (which would then lead elsewhere).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutDetours } from '../../src/model/detours.js';
import { trainingSteps } from '../../src/model/training-steps.js';
import type { NodeColumns, TrajectoryForTraining } from '../../src/model/types.js';

const HOST = 'http://127.0.0.1:9999';

/** A page with a link (1), a button (2), a search box (3) and a text field (4). */
const nodes: NodeColumns = {
  ids: [1, 2, 3, 4],
  roles: ['link', 'button', 'searchbox', 'textbox'],
  names: ['Account', 'Add to Cart', 'Search', 'Title'],
  depths: [1, 1, 1, 1],
  inViewport: [1, 1, 1, 1],
};

function trajectory(steps: [string, string][]): TrajectoryForTraining {
  return {
    intent: 'What is the price of the Blue Mug?',
    horizon: 30,
    steps: steps.map(([url, action]) => ({ url: HOST + url, nodes, note: null, reply: `Action: ${action}` })),
  };
}

const urls = (t: TrajectoryForTraining) => t.steps.map((s) => s.url.slice(HOST.length));

test('a tour through links back to the start page is cut, and history and step numbers start over', () => {
  const t = trajectory([
    ['/shop/', 'Click [1]'],
    ['/shop/account', 'Click [1]'],
    ['/shop/', 'Type [3] [Blue Mug]'],
    ['/shop/search?q=Blue+Mug', 'ANSWER [$12.50]'],
  ]);
  const { trajectory: cut, cut: n } = withoutDetours(t);
  assert.equal(n, 2);
  assert.deepEqual(urls(cut), ['/shop/', '/shop/search?q=Blue+Mug']);
  const steps = trainingSteps(cut);
  assert.deepEqual(
    steps.map((s) => [s.input.step, s.input.history, s.action]),
    [
      [0, [], 'Type [3] [Blue Mug]'],
      [1, ['Type [3] [Blue Mug]'], 'ANSWER [$12.50]'],
    ],
  );
});

test('searching away and going back is a detour too', () => {
  const t = trajectory([
    ['/forum/f/science/6816', 'Type [3] [tardigrades]'],
    ['/forum/search?q=tardigrades', 'GoBack'],
    ['/forum/f/science/6816', 'ANSWER [0 comments]'],
  ]);
  assert.deepEqual(urls(withoutDetours(t).trajectory), ['/forum/f/science/6816']);
});

test('a button or a form field inside the loop keeps every step', () => {
  for (const action of ['Click [2]', 'Type [4] [Weekly thread]']) {
    const t = trajectory([
      ['/shop/product/mug', action],
      ['/shop/cart', 'GoBack'],
      ['/shop/product/mug', 'ANSWER [Done]'],
    ]);
    assert.equal(withoutDetours(t).cut, 0, action);
  }
});

test('scrolling that never leaves the page is kept', () => {
  const t = trajectory([
    ['/tracker/issues', 'Scroll [down]'],
    ['/tracker/issues', 'Scroll [down]'],
    ['/tracker/issues', 'Click [1]'],
    ['/tracker/issues/15', 'ANSWER [Done]'],
  ]);
  assert.equal(withoutDetours(t).cut, 0);
});

test('a return followed by "back" is kept, since back would then lead elsewhere', () => {
  const t = trajectory([
    ['/forum/', 'Click [1]'],
    ['/forum/user/ann', 'Click [1]'],
    ['/forum/', 'GoBack'],
    ['/forum/user/ann', 'ANSWER [3]'],
  ]);
  const { trajectory: cut } = withoutDetours(t);
  // /forum/ → … → /forum/ then back: not cut. /forum/user/ann → /forum/ → back to it: the
  // return ends the trajectory with an answer, so that loop goes.
  assert.deepEqual(urls(cut), ['/forum/', '/forum/user/ann']);
  assert.deepEqual(
    cut.steps.map((s) => s.reply),
    ['Action: Click [1]', 'Action: ANSWER [3]'],
  );
});

test('a trajectory that never comes back, or ends mid-detour, is left whole', () => {
  const t = trajectory([
    ['/shop/', 'Click [1]'],
    ['/shop/account', 'Click [1]'],
    ['/shop/orders', 'ANSWER [3]'],
  ]);
  assert.equal(withoutDetours(t).cut, 0);
  assert.equal(withoutDetours(trajectory([])).cut, 0);
});

// Tours: steps that lead on to a page whose next action the first page offered already.

/** A page whose element ids start at `base`: a link to /shop/account (base+1), a button, the site search. */
function page(base: number, searchInView = 1): { nodes: NodeColumns; observation: string } {
  return {
    nodes: { ...nodes, ids: nodes.ids.map((id) => base + id), inViewport: [1, 1, searchInView, 1] },
    observation: [
      `[${base + 1}] link 'Account' url: ${HOST}/shop/account`,
      `[${base + 2}] button 'Add to Cart'`,
      `[${base + 3}] searchbox 'Search'`,
    ].join('\n'),
  };
}

function tour(steps: [string, string, { nodes: NodeColumns; observation: string }][]): TrajectoryForTraining {
  return {
    intent: 'What is the price of the Blue Mug?',
    horizon: 30,
    steps: steps.map(([url, action, p]) => ({
      url: HOST + url,
      ...p,
      note: null,
      reply: `Action: ${action}`,
    })),
  };
}

const actions = (t: TrajectoryForTraining) => t.steps.map((s) => s.reply.replace('Action: ', ''));

test('a tour ending in a search the first page offers becomes that search, aimed at the first page’s box', () => {
  const t = tour([
    ['/shop/', 'Click [101]', page(100)],
    ['/shop/account', 'Click [201]', page(200)],
    ['/shop/orders', 'Type [303] [Blue Mug]', page(300)],
    ['/shop/search?q=Blue+Mug', 'ANSWER [$12.50]', page(400)],
  ]);
  const { trajectory: cut, cut: n } = withoutDetours(t);
  assert.equal(n, 2);
  assert.deepEqual(urls(cut), ['/shop/', '/shop/search?q=Blue+Mug']);
  assert.deepEqual(actions(cut), ['Type [103] [Blue Mug]', 'ANSWER [$12.50]']);
});

test('a link at the end of a tour is clicked on the first page only where a link there has its URL', () => {
  const linked = tour([
    ['/shop/', 'Click [102]', page(100)],
    ['/shop/cart', 'Click [201]', page(200)],
    ['/shop/account', 'ANSWER [3]', page(300)],
  ]);
  // Add to Cart (a button) may change the sites: nothing is cut
  assert.equal(withoutDetours(linked).cut, 0);
  const first = page(100);
  const other = { ...first, observation: first.observation.replace('/shop/account', '/shop/orders') };
  const viaSearch = (p: { nodes: NodeColumns; observation: string }) =>
    tour([
      ['/shop/', 'Scroll [down]', p],
      ['/shop/', 'Hover [101]', p],
      ['/shop/', 'Type [103] [Blue Mug]', p],
      ['/shop/search?q=Blue+Mug', 'Click [201]', page(200)],
      ['/shop/account', 'ANSWER [3]', page(300)],
    ]);
  const cut = withoutDetours(viaSearch(first)).trajectory;
  assert.deepEqual(actions(cut), ['Click [101]', 'ANSWER [3]']);
  // the first page's Account link goes elsewhere: the tour stays
  assert.deepEqual(actions(withoutDetours(viaSearch(other)).trajectory).slice(-2), [
    'Click [201]',
    'ANSWER [3]',
  ]);
});

test('a tour is kept when the first page’s box is out of view or the text was read on the way', () => {
  const hidden = tour([
    ['/shop/', 'Click [101]', page(100, 0)],
    ['/shop/account', 'Type [203] [Blue Mug]', page(200)],
    ['/shop/search?q=Blue+Mug', 'ANSWER [$12.50]', page(300)],
  ]);
  assert.equal(withoutDetours(hidden).cut, 0);
  const read = tour([
    ['/shop/', 'Click [101]', page(100)],
    ['/shop/account', 'Type [203] [Red Kettle]', page(200)],
    ['/shop/search?q=Red+Kettle', 'ANSWER [$9.00]', page(300)],
  ]);
  assert.equal(withoutDetours(read).cut, 0);
});
