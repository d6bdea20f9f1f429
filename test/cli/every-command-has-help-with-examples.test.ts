// Every command declares its options and examples in its own module (src/cli/commands/); each
// one's --help must show both, and the list below must name every command tti-run has.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CliResult, runCli } from '../helpers/run-fixture.js';

const COMMANDS = [
  ['train'],
  ['pretrain'],
  ['plot'],
  ['view'],
  ['report'],
  ['export-sft'],
  ['eval'],
  ['config'],
  ['status'],
  ['attach'],
  ['stop'],
  ['inject'],
  ['chaos'],
  ['worker'],
  ['credentials'],
  ['tasks', 'validate'],
  ['tasks', 'generate'],
  ['tasks', 'check'],
  ['tasks', 'export'],
  ['score'],
  ['arena', 'serve'],
];

/** Each `--help` runs once: the tests below read the same outputs (a process each costs a second of CPU). */
const helps = new Map<string, Promise<CliResult>>();
function help(command: readonly string[]): Promise<CliResult> {
  const key = command.join(' ');
  let result = helps.get(key);
  if (result === undefined) {
    result = runCli([...command, '--help']);
    helps.set(key, result);
  }
  return result;
}

for (const command of COMMANDS) {
  test(`tti-run ${command.join(' ')} --help shows options and examples`, async () => {
    const result = await help(command);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Options:/);
    assert.match(result.stdout, /Examples:/);
  });
}

/** The commands a `--help` lists under "Commands:", as `tti-run name ...` lines. */
async function listed(group: string[]): Promise<string[]> {
  const result = await help(group);
  assert.equal(result.code, 0, result.stderr);
  const section = result.stdout.split('Commands:')[1]?.split('Options:')[0] ?? '';
  return [...section.matchAll(/^ {2}tti-run ((?:[\w-]+ )*?[\w-]+)(?: <[^>]+>)*(?= {2}| *$)/gm)].map(
    (m) => m[1]!,
  );
}

test('the list above names every command tti-run has', async () => {
  const top = await listed([]);
  const leaves: string[] = [];
  for (const name of top) {
    const sub = await listed([name]);
    leaves.push(...(sub.length === 0 ? [name] : sub));
  }
  assert.deepEqual(leaves.sort(), COMMANDS.map((c) => c.join(' ')).sort());
});

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
