// collect.search_rank: value — the cell archive (src/search/cell-archive.ts) draws the pages the
// critic rated highest far more often than the rest, keeps each page's best rating, and a page
// not yet rated counts as the mean of the rated ones; by visits alone the ratings change nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Observation } from '../../src/envs/index.js';
import { CellArchive } from '../../src/search/index.js';
import { SeededRandom } from '../../src/util/index.js';

const page = (text: string): Observation =>
  ({ url: 'http://x/', text, nodes: [], notes: [] }) as unknown as Observation;

function archiveOf(): CellArchive {
  const archive = new CellArchive();
  for (const p of ['start', 'near', 'far', 'unrated']) archive.reach(page(p), []);
  archive.rate(page('start'), 0.1);
  archive.rate(page('near'), 0.2);
  archive.rate(page('far'), 0.6);
  archive.rate(page('far'), 0.3); // a lower rating later does not lower the page's
  return archive;
}

function draws(
  archive: CellArchive,
  rank: Parameters<CellArchive['choose']>[2],
  n: number,
): Map<string, number> {
  const random = new SeededRandom(3).next;
  const counts = new Map<string, number>();
  for (let k = 0; k < n; k++) {
    const cell = archive.choose(10, random, rank)!;
    const name = cell.key.split('\n')[1]!;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

test('ranked by value, the page the critic rates highest is drawn most; its best rating is kept', () => {
  const archive = archiveOf();
  assert.equal(archive.bestValue(), 0.6);
  const byValue = draws(archive, { by: 'value', temperature: 0.1 }, 400);
  assert.ok(
    (byValue.get('far') ?? 0) > 0.6 * 400,
    `far ${byValue.get('far')}, near ${byValue.get('near')}, start ${byValue.get('start')}, unrated ${byValue.get('unrated')}`,
  );
  // the unrated page counts as the mean (0.3): above start (0.1), below far
  assert.ok((byValue.get('unrated') ?? 0) > (byValue.get('start') ?? 0));
});

test('ranked by visits, ratings change nothing: every page is drawn about as often', () => {
  const byVisits = draws(archiveOf(), { by: 'visits' }, 400);
  for (const name of ['start', 'near', 'far', 'unrated'])
    assert.ok((byVisits.get(name) ?? 0) > 60, `${name}: ${byVisits.get(name)}`);
  assert.equal(new CellArchive().bestValue(), null);
});
