// What `npm start` and `tti-run status` show a user: progress, success, rates and workers in words,
// and each strategy that is on under its own name with the labels it declares. No raw counter
// name (camelCase) reaches the screen; `status --json` keeps them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { renderRun, renderStatusTable } from '../../src/cli/console-view.js';
import { lastResults } from '../../src/cli/last-results.js';
import { strategyBlocks } from '../../src/cli/view-strategies.js';
import { loadConfig } from '../../src/config/index.js';
import { defaultConfigFile } from '../../src/util/paths.js';
import { envWorker, statusSnapshot } from '../helpers/status-snapshot.js';

const CAMEL = /\b[a-z]+[A-Z]\w*/;
// every counter an env worker keeps with every strategy on, as a long run has them
const probing = envWorker('env-0', {
  episodes: 40,
  steps: 310,
  successes: 4,
  stopProbes: 1462,
  stopProbeHits: 1,
  stopProbesUnevidenced: 0,
  stopProbesLucky: 7,
  stopProbesGuessable: 492,
  actResends: 2,
  hostDown: 0,
});

test('with stop probes on, their counters show under "stop probes" in plain words and no counter name shows', () => {
  const config = loadConfig(defaultConfigFile, []);
  assert.equal(config.collect.stop_probes, true, 'the default config probes');
  const text = renderRun(statusSnapshot([probing]), [], {
    iterations: 10,
    previous: null,
    strategies: strategyBlocks(config),
  });
  const lines = text.split('\n');
  const at = lines.indexOf('stop probes');
  assert.ok(at >= 0, text);
  assert.match(lines[at + 1] ?? '', /^ {2}answers scored +1462$/);
  assert.ok(
    lines.some((l) => /^ {2}counts left to the policy +492$/.test(l)),
    text,
  );
  assert.ok(!CAMEL.test(text), `a counter name on screen: ${text.match(CAMEL)?.[0]}\n${text}`);
  // the worker's row says what it did in words
  assert.match(text, /^env-0 +env .* 40 episodes, 310 env steps$/m);
});

test('with every strategy off there is no strategy block, whatever counters the workers hold', () => {
  const config = loadConfig(defaultConfigFile, ['collect.stop_probes=false']);
  assert.deepEqual(strategyBlocks(config), []);
  const text = renderStatusTable(statusSnapshot([probing]), {
    iterations: 10,
    strategies: strategyBlocks(config),
  });
  assert.ok(!/answers scored|stop probes|rollouts/.test(text), text);
  assert.ok(!CAMEL.test(text), text);
});

test('strategies that keep the same counters share one block under both names', () => {
  const config = loadConfig(defaultConfigFile, [
    'collect.stop_probes=false',
    'collect.search=branch',
    'eval_search=branch',
  ]);
  assert.deepEqual(
    strategyBlocks(config).map((b) => b.name),
    ['search, test-time search'],
  );
});

test("progress, success and rates read the snapshot, the previous one and the run's metrics", (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-view-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const row = (iteration: number, success: number, evalSuccess: number | null) =>
    JSON.stringify({
      iteration,
      train: { episodes: 32, success },
      eval: evalSuccess === null ? null : { episodes: 20, successes: 0, success: evalSuccess },
    });
  // the last line is still being written: passed over
  writeFileSync(
    path.join(dir, 'metrics.jsonl'),
    `${row(1, 0.25, 0.1)}\n${row(2, 0.5, null)}\n{"iteration": 3, "tra`,
  );
  const results = lastResults(dir);
  assert.deepEqual(results, {
    collection: { iteration: 2, episodes: 32, success: 0.5 },
    eval: { iteration: 1, episodes: 20, success: 0.1 },
  });
  const previous = statusSnapshot([envWorker('env-0', { steps: 100 })], {
    uptimeMs: 10_000,
    episodes: { done: 10, success: 2 },
  });
  const now = statusSnapshot([envWorker('env-0', { steps: 150 })], {
    uptimeMs: 20_000,
    episodes: { done: 15, success: 3 },
  });
  const text = renderRun(now, [], { iterations: 10, previous, strategies: [], results });
  assert.match(text, /^progress {2}15 episodes {3}150 env steps/m);
  assert.match(
    text,
    /^success {3}collection 50% of 32 episodes \(iteration 2\) {3}last eval 10% of 20 episodes \(iteration 1\)/m,
  );
  assert.match(text, /^rates {5}5\.0 env steps\/s {3}30\.0 episodes\/min$/m);
  // a run directory with no metrics yet
  assert.deepEqual(lastResults(path.join(dir, 'none')), { collection: null, eval: null });
});
