import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig, presetNames } from '../../src/config/load.js';
import { projectRoot } from '../../src/util/paths.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tti-config-'));
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

test('the shipped configs load', () => {
  const config = loadConfig(path.join(projectRoot, 'configs', 'miniarena.yaml'));
  assert.equal(config.policy_lm, 'tfjs');
  assert.deepEqual(config.horizon_schedule, [10, 20, 20, 30]);
  assert.equal(config.supervisor.max_restarts, 5);
});

test('defaults fill what a file leaves out', () => {
  const config = loadConfig(write('empty.yaml', ''));
  assert.equal(config.min_try, 1);
  assert.equal(config.transport.kind, 'ipc');
});

test('a bad value names the file, the key, the value and what was expected', () => {
  const file = write('bad.yaml', 'rollout_size: -4\nsupervisor:\n  max_restarts: many\n');
  assert.throws(
    () => loadConfig(file),
    (error: Error) =>
      error instanceof ConfigError &&
      error.message.includes(file) &&
      /key 'rollout_size': got -4; .*>0/.test(error.message) &&
      /key 'supervisor.max_restarts': got "many"; expected number/.test(error.message),
  );
});

test('an unknown key is an error, not silently ignored', () => {
  const file = write('typo.yaml', 'rolout_size: 8\n');
  assert.throws(() => loadConfig(file), /unknown key 'rolout_size'/);
});

test('--set overrides with YAML values and is named in errors', () => {
  const file = write('ok.yaml', 'rollout_size: 8\n');
  const config = loadConfig(file, ['rollout_size=16', 'horizon_schedule=[5, 10]', 'workers.env=3']);
  assert.equal(config.rollout_size, 16);
  assert.deepEqual(config.horizon_schedule, [5, 10]);
  assert.equal(config.workers.env, 3);
  assert.throws(
    () => loadConfig(file, ['min_try=zero']),
    /--set min_try=zero[\s\S]*key 'min_try': got "zero"/,
  );
  assert.throws(() => loadConfig(file, ['nonsense']), /expected key=value/);
});

test('broken YAML and a missing file say so', () => {
  assert.throws(() => loadConfig(write('broken.yaml', 'a: [1, 2\n')), /is not valid YAML/);
  assert.throws(() => loadConfig(path.join(dir, 'missing.yaml')), /cannot read config/);
});

test('a preset lays its keys over the config file, and --set still wins', () => {
  const config = loadConfig(
    path.join(projectRoot, 'configs', 'miniarena.yaml'),
    ['rollout_size=7'],
    ['quick'],
  );
  assert.equal(config.run_name, 'quick', 'from the preset');
  assert.equal(config.rollout_size, 7, '--set over the preset');
  assert.equal(config.workers.replay, 1, 'sections merge key by key');
  // a MiniWoB++ preset takes the user's folder (--miniwob-dir), as every MiniWoB++ run does
  const folder = `env.miniwob.dir=${path.join(projectRoot, '..', 'shared', 'data', 'miniwob', 'html')}`;
  for (const name of presetNames())
    assert.doesNotThrow(() => loadConfig(null, name === 'miniwob' ? [folder] : [], [name]), name);
  assert.throws(
    () => loadConfig(null, [], ['miniwob']),
    /env\.miniwob\.dir': got nothing.*set env\.miniwob\.dir/,
  );
});

test('an unknown preset names the file it looked for and the presets there are', () => {
  assert.throws(
    () => loadConfig(null, [], ['warp-speed']),
    (e: Error) =>
      e instanceof ConfigError &&
      /no preset 'warp-speed'/.test(e.message) &&
      /presets: .*quick/.test(e.message),
  );
});

test("an old run directory's env.suite webarena without a host is refused up front, saying how to resume it", () => {
  // what tti wrote before suites were plug-ins: webarena was the default and meant the task files
  const file = write('old-run.yaml', 'env:\n  suite: webarena\nwebarena_host: null\n');
  assert.throws(
    () => loadConfig(file),
    (error: Error) =>
      error instanceof ConfigError &&
      error.message.includes(file) &&
      /key 'env.suite'/.test(error.message) &&
      error.message.includes('--set env.suite=auto'),
  );
  assert.equal(loadConfig(file, ['env.suite=auto']).env.suite, 'auto');
  assert.equal(loadConfig(file, ['webarena_host=localhost']).env.suite, 'webarena');
});

test('collection search keys default to TTI and name a bad value', () => {
  const file = write('search.yaml', '');
  assert.equal(loadConfig(file).collect.search, 'none');
  const on = loadConfig(file, ['collect.search=branch', 'collect.search_budget=40']);
  assert.equal(on.collect.search, 'branch');
  assert.equal(on.collect.search_budget, 40);
  assert.throws(() => loadConfig(file, ['collect.search=mcts']), /key 'collect.search': got "mcts"/);
  assert.throws(() => loadConfig(file, ['collect.search_burst=0']), /key 'collect.search_burst': got 0/);
  assert.equal(loadConfig(file).collect.stop_probes, false, "TTI's episodes: only the policy stops");
  assert.equal(loadConfig(file, ['collect.stop_probes=true']).collect.stop_probes, true);
  assert.throws(
    () => loadConfig(file, ['collect.stop_probes=true', 'collect.state_probes=true']),
    /key 'collect.state_probes': got true; removed from tti/,
  );
  assert.throws(
    () => loadConfig(file, ['collect.stop_probes=often']),
    /key 'collect.stop_probes': got "often"/,
  );
  assert.throws(
    () => loadConfig(file, ['collect.search=branch', 'collect.search_keep=exploratory']),
    /key 'collect.search_keep': got "exploratory"; removed from tti/,
  );
});

test('test-time search keys default to greedy eval and name a bad value', () => {
  const file = write('eval-search.yaml', '');
  const plain = loadConfig(file);
  assert.deepEqual([plain.eval_search, plain.eval_search_budget], ['none', 60]);
  const on = loadConfig(file, ['eval_search=branch', 'eval_search_budget=90']);
  assert.deepEqual([on.eval_search, on.eval_search_budget], ['branch', 90]);
  assert.throws(() => loadConfig(file, ['eval_search=mcts']), /key 'eval_search': got "mcts"/);
  assert.throws(() => loadConfig(file, ['eval_search_budget=0']), /key 'eval_search_budget': got 0/);
  assert.throws(
    () => loadConfig(file, ['eval_search_pick=value']),
    /key 'eval_search_pick': got "value"; removed from tti/,
  );
  assert.throws(
    () => loadConfig(file, ['eval_search_temperature=0']),
    /key 'eval_search_temperature': got 0/,
  );
});

test('the learner algorithm defaults to filtered BC, awr keys name a bad value, and awr needs the tfjs learner', () => {
  const file = write('learner.yaml', '');
  assert.equal(loadConfig(file).learner.algorithm, 'filtered_bc');
  const awr = loadConfig(file, ['learner.algorithm=awr', 'learner.awr_threshold=0.1']);
  assert.equal(awr.learner.algorithm, 'awr');
  assert.equal(awr.learner.awr_threshold, 0.1);
  assert.throws(() => loadConfig(file, ['learner.algorithm=ppo']), /key 'learner.algorithm': got "ppo"/);
  assert.throws(() => loadConfig(file, ['learner.awr_lambda=1.5']), /key 'learner.awr_lambda': got 1.5/);
  assert.throws(
    () => loadConfig(file, ['learner.awr_weighting=exp']),
    /key 'learner.awr_weighting': got "exp"; removed from tti/,
  );
  assert.throws(
    () => loadConfig(file, ['learner.algorithm=awr', 'learner.kind=external']),
    (error: Error) =>
      error instanceof ConfigError &&
      /key 'learner.algorithm'/.test(error.message) &&
      /tfjs/.test(error.message),
  );
});

test('a search ranks its pages by visits unless told to by value, and a bad rank is named', () => {
  const file = write('search-rank.yaml', '');
  assert.equal(loadConfig(file).collect.search_rank, 'visits');
  assert.equal(loadConfig(file, ['collect.search_rank=value']).collect.search_rank, 'value');
  assert.throws(
    () => loadConfig(file, ['collect.search_rank=progress']),
    /key 'collect.search_rank': got "progress"; that value was removed from tti/,
  );
  assert.throws(
    () => loadConfig(file, ['collect.search_rank=mcts']),
    /key 'collect.search_rank': got "mcts"/,
  );
  assert.throws(
    () => loadConfig(file, ['collect.search_by_url=true']),
    /key 'collect.search_by_url'.*removed/,
  );
  assert.throws(
    () => loadConfig(file, ['collect.search_value_temperature=0']),
    /key 'collect.search_value_temperature': got 0/,
  );
});
