// A run directory written before issue 52 removed the mechanisms that showed no gain keeps every
// key in its config.yaml. Keys at the value that changed nothing are dropped, so the run resumes
// as it ran; a key that set a removed mechanism gets a message saying so, never a stack trace.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { ConfigError, loadConfig, REMOVED_KEYS } from '../../src/config/index.js';
import { runCli } from '../helpers/run-fixture.js';

/** What tti wrote to RUN_DIR/config.yaml before the change: every key, the removed ones too. */
function oldRunConfig(changes: Record<string, unknown> = {}): string {
  const tree = structuredClone(loadConfig(null)) as unknown as Record<string, Record<string, unknown>>;
  const old: Record<string, unknown> = {
    temperature_spread: [1],
    task_sampling: 'uniform',
    eval_search_pick: 'likelihood',
  };
  Object.assign(tree, old);
  tree.model!.top_p = 1;
  tree.model!.word_dropout = 0;
  Object.assign(tree.collect!, {
    search_keep: 'from_start',
    search_by_url: false,
    search_progress_temperature: 0.1,
    state_probes: false,
  });
  Object.assign(tree.learner!, { awr_weighting: 'filter', awr_temperature: 0.3, awr_max_weight: 20 });
  for (const [key, value] of Object.entries(changes)) {
    const parts = key.split('.');
    const parent = parts
      .slice(0, -1)
      .reduce((node, p) => node[p] as Record<string, unknown>, tree as Record<string, unknown>);
    parent[parts.at(-1)!] = value;
  }
  return stringify(tree);
}

const dir = mkdtempSync(path.join(tmpdir(), 'tti-old-run-'));

test('an old run config whose removed keys changed nothing loads as the same config', () => {
  assert.deepEqual(Object.keys(REMOVED_KEYS).sort(), [
    'collect.search_by_url',
    'collect.search_keep',
    'collect.search_progress_temperature',
    'collect.state_probes',
    'eval_search_pick',
    'learner.awr_max_weight',
    'learner.awr_temperature',
    'learner.awr_weighting',
    'model.top_p',
    'model.word_dropout',
    'task_sampling',
    'temperature_spread',
  ]);
  const file = path.join(dir, 'inert.yaml');
  writeFileSync(file, oldRunConfig());
  assert.deepEqual(loadConfig(file), loadConfig(null));
});

test('an old run config that used a removed mechanism names the key, its value, why and how to go on', () => {
  const file = path.join(dir, 'spread.yaml');
  writeFileSync(file, oldRunConfig({ temperature_spread: [1, 0.5] }));
  assert.throws(
    () => loadConfig(file),
    (e: Error) =>
      e instanceof ConfigError &&
      e.message.includes(file) &&
      /key 'temperature_spread': got \[1,0\.5\]; removed from tti after e2cc483: .*experiments\/temperature-spread/.test(
        e.message,
      ) &&
      !e.message.includes('task_sampling') &&
      e.message.includes('after e2cc483'),
  );
});

test('an old run config that drew pages by progress or kept searches as they went says why, and where to resume', () => {
  const file = path.join(dir, 'search.yaml');
  writeFileSync(
    file,
    oldRunConfig({ 'collect.search_rank': 'progress', 'collect.search_keep': 'exploratory' }),
  );
  assert.throws(
    () => loadConfig(file),
    (e: Error) =>
      e instanceof ConfigError &&
      /key 'collect\.search_rank': got "progress"; that value was removed from tti after cf5ca6d: .*experiments\/action-tasks/.test(
        e.message,
      ) &&
      /key 'collect\.search_keep': got "exploratory"; removed from tti after cf5ca6d: .*experiments\/exploratory-keep/.test(
        e.message,
      ) &&
      !e.message.includes('search_by_url'),
  );
});

test('resuming such a run directory exits with the message and no stack trace', async () => {
  const runDir = path.join(dir, 'run');
  mkdirSync(runDir);
  writeFileSync(
    path.join(runDir, 'config.yaml'),
    oldRunConfig({ task_sampling: 'unsolved', temperature_spread: [1, 0.5] }),
  );
  writeFileSync(
    path.join(runDir, 'state.json'),
    JSON.stringify({ iteration: 2, policyVersion: 2, horizon: 20 }),
  );
  // no workers: were the config let through, the run would start nothing a killed test leaves behind
  const noWorkers = ['env', 'inference', 'replay', 'learner'].flatMap((r) => ['--set', `workers.${r}=0`]);
  const result = await runCli(
    ['train', '--resume', '--run-dir', runDir, '--view', 'log', ...noWorkers],
    30000,
  );
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /sets keys tti no longer has/);
  assert.match(result.stderr, /key 'task_sampling': got "unsolved"; removed from tti/);
  assert.match(result.stderr, /key 'temperature_spread'/);
  assert.match(result.stderr, /removed from tti after e2cc483/);
  assert.match(result.stderr, /resume it with tti at the commit each names/);
  assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
});
