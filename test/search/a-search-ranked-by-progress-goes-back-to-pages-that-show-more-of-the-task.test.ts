// collect.search_rank: progress — `taskProgress` (src/model/features.ts) rates a page by the
// task's words the page shows and the way there acted on, with no training and no suite named; the
// cell archive draws the pages rated highest far more often, and a page reached again by a way that
// did more keeps the higher rating.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Observation } from '../../src/envs/index.js';
import { featuresOf, type NodeColumns, type PolicyInput, taskProgress } from '../../src/model/index.js';
import { CellArchive } from '../../src/search/index.js';
import { SeededRandom } from '../../src/util/index.js';

const intent = 'Close the issue "Build script ignores user locale" in pixelforge/auth-service';

function page(names: string[]): NodeColumns {
  const roles = ['RootWebArea', ...names.map((n) => (n.startsWith('link ') ? 'link' : 'button'))];
  const all = ['Tracker', ...names.map((n) => n.replace(/^link /, ''))];
  return {
    ids: all.map((_, i) => i + 1),
    roles,
    names: all,
    depths: all.map((_, i) => (i === 0 ? 0 : 1)),
    inViewport: all.map(() => 1),
  };
}

const input = (
  nodes: NodeColumns,
  history: string[] = [],
  trail: PolicyInput['trail'] = [],
): PolicyInput => ({
  intent,
  url: 'http://tracker/',
  nodes,
  history,
  trail,
  step: history.length,
  horizon: 30,
  note: null,
});

test("a page that shows the task's subject rates above one that does not, and acting on it adds", () => {
  const home = taskProgress(featuresOf(input(page(['link Explore projects', 'link Help']))));
  const issue = page([
    'link pixelforge/auth-service',
    'link Build script ignores user locale',
    'Close issue',
  ]);
  const onIssue = taskProgress(featuresOf(input(issue)));
  const acted = taskProgress(
    featuresOf(
      input(
        issue,
        ['Click [4]'],
        [{ url: 'http://tracker/issues/30', action: 'Click [button "Close issue"]' }],
      ),
    ),
  );
  assert.ok(home < 0.2, `home ${home}`);
  assert.ok(onIssue > home + 0.5, `issue page ${onIssue}, home ${home}`);
  assert.ok(acted > onIssue, `after acting ${acted}, before ${onIssue}`);
  assert.ok(acted <= 2);
});

const obs = (text: string): Observation =>
  ({ url: 'http://x/', text, nodes: [], notes: [] }) as unknown as Observation;

test('ranked by progress, the page rated highest is drawn most; by visits the ratings change nothing', () => {
  const archive = new CellArchive();
  archive.reach(obs('home'), [], 0.1);
  archive.reach(obs('project'), [], 0.5);
  archive.reach(obs('issue'), [], 0.6);
  archive.reach(obs('issue'), [], 1.2); // a way there that did more of the task
  archive.reach(obs('unrated'), []);
  assert.equal(archive.bestProgress(), 1.2, 'what the live view shows');
  const draws = (rank: Parameters<CellArchive['choose']>[2]) => {
    const random = new SeededRandom(5).next;
    const counts = new Map<string, number>();
    for (let k = 0; k < 400; k++) {
      const name = archive.choose(10, random, rank)!.key.split('\n')[1]!;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return counts;
  };
  const byProgress = draws({ by: 'progress', temperature: 0.1 });
  assert.ok((byProgress.get('issue') ?? 0) > 0.8 * 400, JSON.stringify([...byProgress]));
  assert.ok((byProgress.get('project') ?? 0) > (byProgress.get('home') ?? 0));
  const byVisits = draws({ by: 'visits' });
  for (const name of ['home', 'project', 'issue', 'unrated'])
    assert.ok((byVisits.get(name) ?? 0) > 60, `${name}: ${byVisits.get(name)}`);
});
