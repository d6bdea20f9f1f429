// Fine-tuning: a run started with `model.checkpoint` serves that policy first, trains past it (its
// versions count on from the given one's, since inference swaps in only newer weights, and the
// given checkpoint's iteration counter is not the run's), and a resumed run — every worker
// restarted — continues from the run's own newest checkpoint, not from the given one.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CheckpointStore, loadBackend, saveModelCheckpoint, TfjsPolicy } from '../../src/model/index.js';
import { ReplayLog } from '../../src/replay/replay-log.js';
import { seededSuccess } from '../helpers/kept-trajectory.js';
import { RunFixture, runCli, SMALL_RUN } from '../helpers/run-fixture.js';

const GIVEN_VERSION = 500;

const logOf = (runDir: string, worker: string) =>
  readFileSync(path.join(runDir, 'logs', `${worker}.jsonl`), 'utf8');
const metricVersions = (runDir: string) =>
  readFileSync(path.join(runDir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { policyVersion: number }).policyVersion);

test('a run started from a given checkpoint trains past its version, and a resume continues from the run’s own checkpoint', async (t) => {
  // The given checkpoint: another run's v500, trained for 10 iterations.
  await loadBackend('auto');
  const given = mkdtempSync(path.join(tmpdir(), 'tti-given-'));
  const policy = TfjsPolicy.create({ seed: 7 });
  const givenFolder = saveModelCheckpoint(new CheckpointStore(given, 1), GIVEN_VERSION, policy, null, {
    iteration: 10,
    samplesSeen: 1234,
  });
  policy.dispose();
  const run = RunFixture.create();
  t.after(async () => {
    await run.cleanup();
    rmSync(given, { recursive: true, force: true });
  });
  const { log } = ReplayLog.open(path.join(run.runDir, 'replay'), 1000);
  log.append(seededSuccess());
  log.close();
  const sets = [
    'rollout_size=2',
    'horizon_schedule=[3]',
    'eval_tasks=2',
    'eval_horizon=3',
    'env.record_episodes=false',
    // a few updates show that it trains; the preset's 50 are for learning
    'min_updates=5',
    `model.checkpoint=${givenFolder}`,
  ];

  await run.startForeground(['iterations=1', ...sets], false);
  const code = await run.foregroundExit(240000);
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);
  // includes, not a RegExp: the folder is a temp path, which may hold regex metacharacters
  assert.ok(logOf(run.runDir, 'inference-0').includes(`policy v${GIVEN_VERSION} from ${givenFolder}`));
  const learner = logOf(run.runDir, 'learner-0');
  assert.match(learner, /starting from the weights of/);
  assert.doesNotMatch(learner, /trained already/, "the given checkpoint's iteration 10 is not the run's");
  assert.deepEqual(metricVersions(run.runDir), [GIVEN_VERSION + 1]);
  assert.match(logOf(run.runDir, 'inference-0'), new RegExp(`weights v${GIVEN_VERSION + 1} swapped in`));

  // Resume for a second iteration: every worker starts again, from the run's v501.
  const args = ['train', '--run-dir', run.runDir, '--resume', '--view', 'log'];
  for (const s of [...SMALL_RUN, ...sets, 'iterations=2']) args.push('--set', s);
  const resumed = await runCli(args, 240000);
  assert.equal(resumed.code, 0, `resume exited with ${resumed.code}:\n${resumed.stderr.slice(-3000)}`);
  assert.match(logOf(run.runDir, 'learner-0'), new RegExp(`resumed from checkpoint v${GIVEN_VERSION + 1}`));
  assert.deepEqual(metricVersions(run.runDir), [GIVEN_VERSION + 1, GIVEN_VERSION + 2]);
});

test('a given checkpoint whose weights do not fit the policy stops the run at once, naming it, with no restart', async (t) => {
  // Weights of a narrower network under the options of today's: what an older tti's checkpoint looks like.
  await loadBackend('auto');
  const given = mkdtempSync(path.join(tmpdir(), 'tti-misfit-'));
  const narrow = TfjsPolicy.create({ seed: 7, hidden: 8 });
  const wide = TfjsPolicy.create({ seed: 7 });
  const weights = narrow.exportWeights();
  const folder = new CheckpointStore(given, 1).save(
    3,
    new Map([
      ['policy.json', Buffer.from(JSON.stringify({ options: wide.options, weights: weights.specs }))],
      ['weights.bin', Buffer.concat(weights.frames)],
    ]),
    {},
  );
  narrow.dispose();
  wide.dispose();
  const run = RunFixture.create();
  t.after(async () => {
    await run.cleanup();
    rmSync(given, { recursive: true, force: true });
  });
  await run.startForeground(['iterations=1', `model.checkpoint=${folder}`], false);
  const code = await run.foregroundExit(60000);
  const out = run.foregroundOutput;
  assert.notEqual(code, 0, out.slice(-3000));
  assert.ok(out.includes(`refused to start: `), out.slice(-3000));
  assert.ok(
    out.includes(`model.checkpoint ${folder} cannot be loaded: weights do not fit`),
    out.slice(-3000),
  );
  assert.doesNotMatch(out, /restart 1 in/, 'a refusal is not restarted');
});
