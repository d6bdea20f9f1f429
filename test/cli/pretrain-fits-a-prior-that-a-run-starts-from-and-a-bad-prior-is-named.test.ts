// model.prior as a user meets it, in real processes: `tti-run pretrain --prior-only` fits the
// untrained policy's prior to a demo file and writes RUN_DIR/prior.json; `tti-run train --set
// model.prior=…` starts its fresh policy from it (the run's checkpoints carry it); a bad prior file
// is named, field and all, before anything of the run is written.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readPriorFile } from '../../src/model/index.js';
import { projectRoot } from '../../src/util/paths.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const FIXTURE = path.join(projectRoot, 'test/fixtures/pretrain/oracle-demos.jsonl');

function scratch(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-prior-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('pretrain --prior-only fits a prior to the demos and a run starts its fresh policy from it', async (t) => {
  const priorDir = path.join(scratch(t), 'prior');
  const fitted = await runCli(
    ['pretrain', '--demos', FIXTURE, '--prior-only', '--run-dir', priorDir],
    120000,
  );
  assert.equal(fitted.code, 0, fitted.stderr);
  const m = /mean log-likelihood of the demonstrated action (-?[\d.]+) \(uniform\) → (-?[\d.]+)/.exec(
    fitted.stdout,
  );
  assert.ok(m, fitted.stdout);
  assert.ok(Number(m[2]) > Number(m[1]), 'the fitted prior makes the demonstrated actions likelier');
  const file = path.join(priorDir, 'prior.json');
  const prior = readPriorFile(file);
  assert.ok(fitted.stdout.includes(`tti-run train --set model.prior=${file}`));
  assert.equal(existsSync(path.join(priorDir, 'checkpoints')), false, 'no BC was run');

  const run = RunFixture.create();
  t.after(() => run.cleanup());
  await run.startForeground(
    [
      'iterations=1',
      'rollout_size=2',
      'horizon_schedule=[3]',
      'eval_tasks=2',
      'eval_horizon=3',
      'env.record_episodes=false',
      // a few updates show that it trains; the preset's 50 are for learning
      'min_updates=5',
      `model.prior=${file}`,
      // two episodes of three steps rarely keep anything: the demos make the iteration train
      `learner.demos=${FIXTURE}`,
      'learner.demos_per_iteration=3',
    ],
    false,
  );
  const code = await run.foregroundExit(240000);
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);
  const checkpoints = path.join(run.runDir, 'checkpoints');
  const latest = readdirSync(checkpoints)
    .filter((n) => /^v\d+$/.test(n))
    .sort()
    .at(-1);
  assert.ok(latest, 'the run wrote a checkpoint');
  const saved = JSON.parse(readFileSync(path.join(checkpoints, latest, 'policy.json'), 'utf8')) as {
    options: { prior: typeof prior };
  };
  assert.deepEqual(saved.options.prior, prior, "the run's policy carries the prior it started from");
});

test('tti-run train names a bad model.prior before anything of the run is written', async (t) => {
  const dir = scratch(t);
  const bad = path.join(dir, 'typo.json');
  writeFileSync(bad, JSON.stringify({ kindWeights: { clik: 2 } }));
  const runDir = path.join(dir, 'run');
  const result = await runCli(['train', '--run-dir', runDir, '--view', 'log', '--set', `model.prior=${bad}`]);
  assert.equal(result.code, 2, result.stderr);
  assert.ok(result.stderr.includes(`model.prior: ${bad}: kindWeights.clik is not one of`), result.stderr);
  assert.equal(existsSync(path.join(runDir, 'config.yaml')), false, 'no run was written');
  const missing = await runCli([
    'train',
    '--run-dir',
    runDir,
    '--set',
    `model.prior=${path.join(dir, 'nope.json')}`,
  ]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /model\.prior: .*nope\.json does not exist/);
  const chat = await runCli([
    'train',
    '--run-dir',
    runDir,
    '--set',
    `model.prior=${bad}`,
    '--set',
    'policy_lm=some-chat-model',
  ]);
  assert.equal(chat.code, 2);
  assert.match(chat.stderr, /key 'model\.prior': .*a prior shapes the embedded tfjs policy/);
});
