// The task order (src/actors/supervisor/site-order.ts): an episode that changes a site starts only
// when nothing runs on that site and holds it alone; readers share a site; an episode waits behind
// an earlier waiting one it conflicts with (so readers do not starve a writer); episodes without a
// claim, or on other sites, go by.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conflicts, nextStartable } from '../../src/actors/supervisor/site-order.js';
import type { SiteClaim } from '../../src/envs/index.js';

const read = (...sites: string[]): SiteClaim => ({ sites, changes: false });
const write = (...sites: string[]): SiteClaim => ({ sites, changes: true });
const pick = (waiting: (SiteClaim | null)[], running: (SiteClaim | null)[]) =>
  nextStartable(waiting, running, (c) => c);

test('two episodes conflict when they share a site that one of them changes', () => {
  assert.equal(conflicts(read('shopping'), read('shopping')), false);
  assert.equal(conflicts(write('shopping'), read('shopping')), true);
  assert.equal(conflicts(read('shopping', 'reddit'), write('reddit')), true);
  assert.equal(conflicts(write('shopping'), write('gitlab')), false);
  assert.equal(conflicts(write('shopping'), read()), false);
});

test('a site-changing episode waits for its site to be free, and then holds it alone', () => {
  // readers running on shopping: the writer waits, a reader elsewhere goes
  assert.equal(pick([write('shopping')], [read('shopping')]), -1);
  assert.equal(pick([write('shopping'), read('reddit')], [read('shopping')]), 1);
  // the writer running: no reader of its site starts, others do
  assert.equal(pick([read('shopping')], [write('shopping')]), -1);
  assert.equal(pick([read('shopping'), read('gitlab')], [write('shopping')]), 1);
  assert.equal(pick([write('shopping', 'reddit')], [read('reddit')]), -1);
  // readers share
  assert.equal(pick([read('shopping')], [read('shopping'), read('shopping')]), 0);
  // a task without a claim runs whatever runs
  assert.equal(pick([null], [write('shopping')]), 0);
  assert.equal(pick([], []), -1);
});

test('an episode does not overtake an earlier waiting one it conflicts with', () => {
  // the writer is first in line behind a running reader: a later reader of its site waits too
  assert.equal(pick([write('shopping'), read('shopping')], [read('shopping')]), -1);
  // but one that conflicts with neither goes
  assert.equal(pick([write('shopping'), read('shopping'), read('gitlab')], [read('shopping')]), 2);
  // two writers of one site keep their order
  assert.equal(pick([write('shopping'), write('shopping')], []), 0);
  assert.equal(pick([write('shopping'), write('shopping')], [write('shopping')]), -1);
});
