// The live view (train, attach) sums the env workers' search counters under the search's name and
// shows the searches in flight, and what stop probes scored, kept and refused; a run with neither
// on shows neither block.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderRun } from '../../src/cli/console-view.js';
import { strategyBlocks } from '../../src/cli/view-strategies.js';
import { loadConfig } from '../../src/config/index.js';
import { defaultConfigFile } from '../../src/util/paths.js';
import { envWorker, statusSnapshot } from '../helpers/status-snapshot.js';

const strategies = (...sets: string[]) => strategyBlocks(loadConfig(defaultConfigFile, sets));
const searching = strategies('collect.search=branch', 'collect.stop_probes=false');

/** The block under the heading `name`: its lines up to the next blank line. */
function block(text: string, name: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(name);
  assert.ok(start >= 0, `no block "${name}" in:\n${text}`);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}
const figure = (lines: string[], label: string) => {
  const line = lines.find((l) => l.trim().startsWith(`${label}  `));
  assert.ok(line, `no "${label}" in:\n${lines.join('\n')}`);
  return Number(line.trim().split(/\s+/).at(-1));
};

test('the search block sums rollouts, pages, diverged ways back and successes, and names searches in flight', () => {
  const text = renderRun(
    statusSnapshot([
      envWorker(
        'env-0',
        {
          searchRollouts: 7,
          searchCells: 12,
          searchDiverged: 1,
          searchSuccesses: 3,
          searchSuccessesAfterDeadEnds: 2,
        },
        { search: '3 rollouts, 4 pages, depth 2' },
      ),
      envWorker('env-1', { searchRollouts: 5, searchCells: 3, searchDiverged: 0, searchSuccesses: 1 }),
    ]),
    [],
    { iterations: 10, previous: null, strategies: searching },
  );
  const search = block(text, 'search');
  assert.equal(figure(search, 'rollouts'), 12);
  assert.equal(figure(search, 'pages found'), 15);
  assert.equal(figure(search, 'ways back that diverged'), 1);
  assert.equal(figure(search, 'successes'), 4);
  assert.equal(figure(search, 'successes after dead ends'), 2);
  assert.equal(search.at(-1), '  now env-0: 3 rollouts, 4 pages, depth 2');
  assert.deepEqual(
    searching.map((s) => s.name),
    ['search'],
    'only the strategies that take part have a block',
  );
});

test('a run that does not search or probe shows no search or probes block', () => {
  const off = strategies('collect.stop_probes=false');
  assert.deepEqual(off, []);
  const text = renderRun(statusSnapshot([envWorker('env-0', { episodes: 3 })]), [], {
    iterations: 10,
    previous: null,
    strategies: off,
  });
  assert.ok(!/^(search|stop probes)/m.test(text), text);
});

test('the stop probes block sums answers scored, successes kept and the passes refused, by why', () => {
  const probed = (probes: number, hits: number, unevidenced: number, lucky: number, counts: number) => ({
    stopProbes: probes,
    stopProbeHits: hits,
    stopProbesUnevidenced: unevidenced,
    stopProbesLucky: lucky,
    stopProbesGuessable: counts,
  });
  const text = renderRun(
    statusSnapshot([
      envWorker('env-0', probed(400, 3, 2, 1, 30)),
      envWorker('env-1', probed(100, 1, 0, 0, 5)),
    ]),
    [],
    { iterations: 10, previous: null, strategies: strategies() },
  );
  const probes = block(text, 'stop probes');
  assert.equal(figure(probes, 'answers scored'), 500);
  assert.equal(figure(probes, 'successes kept'), 4);
  assert.equal(figure(probes, 'successes refused: beside nothing the task names'), 2);
  assert.equal(figure(probes, 'passes that were luck'), 1);
  assert.equal(figure(probes, 'counts left to the policy'), 35);
});
