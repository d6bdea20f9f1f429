// The inference worker pads a forward pass's pages to its largest candidate count; a batch is run
// in groups of similar counts so that a 12-candidate page is not padded to 300 (policy.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sizeGroups } from '../../src/model/index.js';

test('every page is in one group, and no group pads more than the slack allows', () => {
  const sizes = [12, 300, 110, 95, 14, 280, 100, 13, 0, 120];
  const groups = sizeGroups(sizes, 1.25);
  assert.deepEqual(
    groups.flat().sort((a, b) => a - b),
    sizes.map((_, i) => i),
  );
  for (const g of groups) {
    const counts = g.map((i) => Math.max(1, sizes[i]!));
    const padded = g.length * Math.max(...counts);
    const real = counts.reduce((a, c) => a + c, 0);
    assert.ok(padded <= 1.25 * real || g.length === 1, `group ${g} pads ${padded} for ${real}`);
  }
  // the small pages go together, the large ones together
  assert.ok(groups.some((g) => [0, 4, 7].every((i) => g.includes(i))));
  assert.ok(groups.some((g) => [1, 5].every((i) => g.includes(i))));
});

test('pages of one size make one group; a batch of one is one group', () => {
  assert.deepEqual(sizeGroups([50, 50, 50, 50]), [[0, 1, 2, 3]]);
  assert.deepEqual(sizeGroups([7]), [[0]]);
  assert.deepEqual(sizeGroups([]), []);
});
