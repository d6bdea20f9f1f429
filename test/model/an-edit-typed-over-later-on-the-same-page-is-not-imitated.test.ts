// Filtered BC leaves out a kept trajectory's edits that a later edit of the same field replaced on
// the same page (the password typed into Username, then Username typed again): they did not make
// the episode succeed. An edit of another field, an edit followed by a page change, and the last
// edit of a field are imitated; the left-out steps stay in the history of the steps after them.
// `tti-run pretrain` leaves them out of a user's recordings the same way, unless told not to.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CheckpointStore } from '../../src/model/checkpoint-store.js';
import { loadBackend } from '../../src/model/index.js';
import { imitatedSteps, overwrittenEdits } from '../../src/model/overwritten.js';
import { pretrain } from '../../src/model/pretrain.js';
import type { NodeColumns, TrajectoryForTraining } from '../../src/model/types.js';

const HOST = 'http://127.0.0.1:9999';

/** A login form: Username (4), Password (5), a select (6), Login (7). */
const nodes: NodeColumns = {
  ids: [4, 5, 6, 7],
  roles: ['textbox', 'textbox', 'combobox', 'button'],
  names: ['Username', 'Password', 'Colour', 'Login'],
  depths: [1, 1, 1, 1],
  inViewport: [1, 1, 1, 1],
};

function trajectory(steps: [string, string][]): TrajectoryForTraining {
  return {
    intent: 'Enter the username "lyle" and the password "mattis56" and press login.',
    horizon: 30,
    steps: steps.map(([url, action]) => ({ url: HOST + url, nodes, note: null, reply: `Action: ${action}` })),
  };
}

test('a field typed into twice on one page: only the last edit is imitated', () => {
  const t = trajectory([
    ['/login', 'Type [5] [lyle]'],
    ['/login', 'Type [4] [mattis56]'],
    ['/login', 'Type [4] [lyle]'],
    ['/login', 'Type [5] [mattis56]'],
    ['/login', 'Click [7]'],
  ]);
  assert.deepEqual([...overwrittenEdits(t)].sort(), [0, 1]);
  // The steps kept for imitation still see the replaced edits in their history.
  const kept = imitatedSteps(t, true);
  assert.equal(kept.skipped, 2);
  assert.deepEqual(
    kept.steps.map((s) => [s.action, s.input.history.length]),
    [
      ['Type [4] [lyle]', 2],
      ['Type [5] [mattis56]', 3],
      ['Click [7]', 4],
    ],
  );
});

test('a choice made again replaces the first one', () => {
  const t = trajectory([
    ['/form', 'Select [6] [Red]'],
    ['/form', 'Select [6] [Blue]'],
    ['/form', 'Click [7]'],
  ]);
  assert.deepEqual([...overwrittenEdits(t)], [0]);
});

test('edits of different fields, and the same id after the page changed, are all imitated', () => {
  const t = trajectory([
    ['/login', 'Type [4] [lyle]'],
    ['/login', 'Type [5] [mattis56]'],
    ['/login', 'Click [7]'],
    // Another document: node 4 there is another element, whatever its id.
    ['/search?q=lyle', 'Type [4] [mattis56]'],
    ['/search?q=mattis56', 'Type [4] [lyle]'],
  ]);
  assert.deepEqual([...overwrittenEdits(t)], []);
});

test('an edit, a page left and come back to, then the same id again: not a replacement', () => {
  const t = trajectory([
    ['/login', 'Type [4] [lyle]'],
    ['/help', 'Click [7]'],
    ['/login', 'Type [4] [lyle]'],
  ]);
  assert.deepEqual([...overwrittenEdits(t)], []);
});

test('a trajectory without edits, or with unparseable replies, has nothing to leave out', () => {
  const t = trajectory([
    ['/login', 'Click [7]'],
    ['/login', 'garbled'],
  ]);
  assert.deepEqual([...overwrittenEdits(t)], []);
});

test('pretraining on recordings leaves out the edits typed over, and imitates them when told to', async () => {
  await loadBackend('cpu');
  const t = trajectory([
    ['/login', 'Type [5] [lyle]'],
    ['/login', 'Type [4] [lyle]'],
    ['/login', 'Type [5] [mattis56]'],
    ['/login', 'Click [7]'],
  ]);
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-overwritten-'));
  try {
    const run = (skip: boolean) =>
      pretrain([t], {
        epochs: 1,
        batchSize: 4,
        learningRate: 1e-3,
        clipNorm: 1,
        seed: 1,
        skipOverwrittenEdits: skip,
        store: new CheckpointStore(path.join(dir, String(skip)), 1),
      });
    const skipping = await run(true);
    assert.deepEqual([skipping.steps, skipping.overwritten], [3, 1]);
    const every = await run(false);
    assert.deepEqual([every.steps, every.overwritten], [4, 0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
