import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/run-fixture.js';

const COMMANDS = [
  ['train'],
  ['status'],
  ['attach'],
  ['stop'],
  ['inject'],
  ['worker'],
  ['tasks', 'validate'],
  ['tasks', 'generate'],
  ['tasks', 'check'],
  ['arena', 'serve'],
];

for (const command of COMMANDS) {
  test(`tti-run ${command.join(' ')} --help shows options and examples`, async () => {
    const result = await runCli([...command, '--help']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Options:/);
    assert.match(result.stdout, /Examples:/);
  });
}

test('a config error exits 2 with the file and key named', async () => {
  const result = await runCli([
    'train',
    '--config',
    'configs/miniarena.yaml',
    '--run-dir',
    '/tmp/tti-never',
    '--set',
    'min_try=0',
  ]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /configs\/miniarena.yaml \+ --set min_try=0/);
  assert.match(result.stderr, /key 'min_try': got 0/);
});
