// `tti-run config` prints the resolved config: every key, its value, its section, and which layer
// set it (default, the config file, a preset, a --set), as text and as JSON.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { explainConfig, ownedKeys } from '../../src/config/index.js';
import { runCli } from '../helpers/run-fixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tti-config-cmd-'));
const file = path.join(dir, 'run.yaml');
writeFileSync(file, 'capacity: 800\niterations: 3\ncollect:\n  stop_probes: true\n');

test('each key names the last layer that set it: --set over a preset over the file over the default', () => {
  const { config, keys } = explainConfig(file, ['iterations=4', 'collect.search=branch'], ['quick']);
  const at = (key: string) => keys.find((k) => k.key === key)!;
  assert.deepEqual(at('capacity'), {
    key: 'capacity',
    value: 800,
    source: 'file',
    from: file,
    section: 'core',
  });
  assert.equal(at('iterations').source, '--set', 'the preset sets it too, the --set wins');
  assert.equal(at('iterations').value, 4);
  assert.equal(at('iterations').from, '--set iterations=4');
  assert.equal(at('run_name').from, '--preset quick');
  assert.equal(at('run_name').value, 'quick');
  assert.equal(at('collect.search').section, 'branch-search');
  assert.equal(at('collect.stop_probes').source, 'file');
  assert.equal(at('collect.stop_probes').section, 'stop-probes');
  assert.equal(at('learner.awr_lambda').source, 'default');
  assert.equal(at('learner.awr_lambda').section, 'awr');
  assert.equal(config.iterations, 4);
  assert.equal(keys.length, ownedKeys().length, 'every key, once');
});

test('tti-run config prints each key with its value and where it came from, grouped by section', async () => {
  const result = await runCli(['config', '--config', file, '--preset', 'quick', '--set', 'iterations=4']);
  assert.equal(result.code, 0, result.stderr);
  const line = (key: string) => result.stdout.split('\n').find((l) => l.startsWith(`${key} `)) ?? '';
  assert.equal(line('rollout_size').split(/ +/).slice(1).join(' '), '112 --preset quick');
  assert.match(
    line('capacity'),
    new RegExp(`^capacity +800 +${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  );
  assert.match(line('iterations'), /^iterations +4 +--set iterations=4$/);
  assert.match(line('run_name'), /^run_name +"quick" +--preset quick$/);
  assert.match(line('collect.search_budget'), /^collect\.search_budget +60 +default$/);
  assert.match(result.stdout, /^# branch-search \(src\/search\): /m);
  assert.match(result.stdout, /^# core \(src\/config\): /m);
});

test('tti-run config --json gives every key, and a bad --set is a config error naming the key', async () => {
  const json = await runCli(['config', '--config', file, '--set', 'workers.env=3', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const body = JSON.parse(json.stdout) as {
    file: string;
    keys: { key: string; value: unknown; source: string; from: string; section: string }[];
  };
  assert.equal(body.file, file);
  assert.equal(body.keys.length, ownedKeys().length);
  assert.deepEqual(
    body.keys.filter((k) => k.source !== 'default').map((k) => [k.key, k.value, k.source]),
    [
      ['capacity', 800, 'file'],
      ['iterations', 3, 'file'],
      ['workers.env', 3, '--set'],
      ['collect.stop_probes', true, 'file'],
    ],
  );
  const bad = await runCli(['config', '--config', file, '--set', 'rollout_size=many']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /key 'rollout_size': got "many"/);
});
