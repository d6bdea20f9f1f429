// learner.demos: a run draws demonstrations into every iteration's training beside replay's
// sample (fine-tuning that keeps its demos in the data), and a bad demos file is named, line and
// field, before anything of the run is started or written.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../../src/util/paths.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const FIXTURE = path.join(projectRoot, 'test/fixtures/pretrain/oracle-demos.jsonl');

test('a bad or missing learner.demos file is named before the run starts, and nothing is written', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-demos-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
  const broken = JSON.parse(lines[1]!) as { steps: { nodes: Record<string, unknown> }[] };
  delete broken.steps[0]!.nodes.names;
  const bad = path.join(dir, 'bad.jsonl');
  writeFileSync(bad, `${lines[0]}\n${JSON.stringify(broken)}\n`);
  const train = (demos: string, runDir: string) =>
    runCli(['train', '--run-dir', runDir, '--view', 'log', '--set', `learner.demos=${demos}`]);

  const runDir = path.join(dir, 'run');
  const result = await train(bad, runDir);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /learner\.demos: /);
  assert.ok(result.stderr.includes(`${bad}:2: steps.0.nodes.names: `), result.stderr);
  assert.equal(existsSync(path.join(runDir, 'config.yaml')), false, 'no run was written');

  const missing = await train(path.join(dir, 'nope.jsonl'), runDir);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /learner\.demos: .*nope\.jsonl does not exist/);

  const chat = await runCli([
    'train',
    '--run-dir',
    runDir,
    '--set',
    `learner.demos=${FIXTURE}`,
    '--set',
    'policy_lm=some-chat-model',
  ]);
  assert.equal(chat.code, 2);
  assert.match(chat.stderr, /key 'learner\.demos': .*demos are mixed into the embedded tfjs learner/);
});

test('every iteration trains on demonstrations drawn from learner.demos besides what replay kept', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  await run.startForeground(
    [
      'iterations=2',
      'rollout_size=2',
      'horizon_schedule=[3]',
      // the eval is not what this run is for: once, after the last iteration
      'eval_every=2',
      'eval_tasks=2',
      'eval_horizon=3',
      'env.record_episodes=false',
      // a few updates show that it trains; the preset's 50 are for learning
      'min_updates=5',
      // relative, as a user types it: the run keeps it absolute for workers started elsewhere
      `learner.demos=${path.relative(projectRoot, FIXTURE)}`,
      'learner.demos_per_iteration=3',
    ],
    false,
  );
  const code = await run.foregroundExit(240000);
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);
  assert.match(readFileSync(path.join(run.runDir, 'config.yaml'), 'utf8'), new RegExp(`demos: ${FIXTURE}`));
  const learner = readFileSync(path.join(run.runDir, 'logs', 'learner-0.jsonl'), 'utf8');
  assert.match(learner, /mixing 3 of 4 demonstrations \(9 steps, 0 not among the candidates\)/);
  for (const iteration of [1, 2])
    assert.match(learner, new RegExp(`iteration ${iteration}: 3 demonstrations \\(\\d+ steps\\) mixed in`));
  // Two episodes of three steps rarely keep anything; the demos alone make each iteration train.
  const versions = readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { policyVersion: number }).policyVersion);
  assert.deepEqual(versions, [1, 2]);
});
