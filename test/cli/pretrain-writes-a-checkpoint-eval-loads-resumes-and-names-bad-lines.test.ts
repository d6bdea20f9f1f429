// `tti-run pretrain` as a user runs it, in real processes: BC on a demo file writes a checkpoint
// that `tti-run eval --run-dir` loads; a rerun resumes after its last finished epoch; a bad demo
// file is an error naming the file, the line and the field, with nothing written; `--demos oracle`
// records MiniArena's oracle into RUN_DIR/demos.jsonl once.
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../../src/util/paths.js';
import { runCli } from '../helpers/run-fixture.js';

const FIXTURE = path.join(projectRoot, 'test/fixtures/pretrain/oracle-demos.jsonl');

function scratch(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-pretrain-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const versions = (runDir: string) =>
  readdirSync(path.join(runDir, 'checkpoints'))
    .filter((n) => /^v\d+$/.test(n))
    .sort();

test('pretrain on a demo file writes a checkpoint per epoch; a rerun trains only the epochs left; eval --run-dir loads it', async (t) => {
  const runDir = path.join(scratch(t), 'run');
  const first = await runCli(['pretrain', '--demos', FIXTURE, '--epochs', '1', '--run-dir', runDir], 120000);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /demos: 4 trajectories, 9 steps/);
  assert.match(first.stdout, /coverage: 9\/9 steps/);
  assert.match(first.stdout, /backend: (wasm|node|gpu|cpu)/);
  assert.match(first.stdout, /epoch 1\/1: loss/);
  assert.deepEqual(versions(runDir), ['v00000001']);

  const second = await runCli(['pretrain', '--demos', FIXTURE, '--epochs', '2', '--run-dir', runDir], 120000);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /resuming after epoch 1/);
  assert.doesNotMatch(second.stdout, /epoch 1\/2/, 'epoch 1 is not trained again');
  assert.match(second.stdout, /epoch 2\/2: loss/);
  assert.deepEqual(versions(runDir), ['v00000001', 'v00000002']);
  const summary = JSON.parse(readFileSync(path.join(runDir, 'pretrain.json'), 'utf8')) as {
    resumedFrom: number;
    epochsTrained: number;
    checkpoint: string;
  };
  assert.equal(summary.resumedFrom, 1);
  assert.equal(summary.epochsTrained, 1);
  assert.equal(summary.checkpoint, path.join(runDir, 'checkpoints', 'v00000002'));

  const evaluated = await runCli(
    [
      'eval',
      '--run-dir',
      runDir,
      '--split',
      'train',
      '--limit',
      '1',
      '--horizon',
      '2',
      '--json',
      '--set',
      'workers.env=1',
      '--set',
      'env.record_episodes=false',
    ],
    180000,
  );
  assert.equal(evaluated.code, 0, evaluated.stderr.slice(-2000));
  const report = JSON.parse(evaluated.stdout) as { episodes: number; policyVersion: number; policy: string };
  assert.equal(report.episodes, 1);
  assert.equal(report.policyVersion, 2);
  assert.equal(report.policy, summary.checkpoint);
});

test('a malformed demo line or a missing file is an error naming file, line and field, and writes nothing', async (t) => {
  const dir = scratch(t);
  const bad = path.join(dir, 'bad.jsonl');
  const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
  const broken = JSON.parse(lines[2]!) as { steps: { nodes: { roles: unknown } }[] };
  broken.steps[1]!.nodes.roles = 'link';
  writeFileSync(bad, `${lines[0]}\n\n${lines[1]}\n${JSON.stringify(broken)}\n`);
  const runDir = path.join(dir, 'run');
  const result = await runCli(['pretrain', '--demos', bad, '--run-dir', runDir]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, new RegExp(`${bad}:4: steps\\.1\\.nodes\\.roles: `));
  assert.equal(existsSync(runDir), false, 'no run directory for a bad demo file');

  const missing = await runCli(['pretrain', '--demos', path.join(dir, 'nope.jsonl'), '--run-dir', runDir]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.jsonl does not exist/);
  assert.equal(existsSync(runDir), false);
});

test('--demos oracle records the chosen split once into RUN_DIR/demos.jsonl and trains on it', async (t) => {
  const runDir = path.join(scratch(t), 'run');
  const args = ['pretrain', '--demos', 'oracle', '--split', 'test', '--limit', '1', '--concurrency', '1'];
  const first = await runCli([...args, '--epochs', '1', '--run-dir', runDir], 150000);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /recording the oracle on 1 test tasks/);
  const recorded = readFileSync(path.join(runDir, 'demos.jsonl'), 'utf8').trim().split('\n');
  assert.equal(recorded.length, 1);
  const demo = JSON.parse(recorded[0]!) as { split: string; success: boolean; steps: { reply: string }[] };
  assert.equal(demo.split, 'test');
  assert.equal(demo.success, true);
  assert.match(demo.steps.at(-1)!.reply, /^Action: ANSWER \[/);
  assert.deepEqual(versions(runDir), ['v00000001']);

  // a torn last line (a recording killed mid-write) is cut; the whole demo is not recorded again
  copyFileSync(path.join(runDir, 'demos.jsonl'), path.join(runDir, 'whole.jsonl'));
  writeFileSync(path.join(runDir, 'demos.jsonl'), `${recorded[0]}\n{"taskId": 9`, { flag: 'w' });
  const again = await runCli([...args, '--epochs', '1', '--run-dir', runDir], 60000);
  assert.equal(again.code, 0, again.stderr);
  assert.doesNotMatch(again.stdout, /recording the oracle/);
  assert.match(again.stdout, /nothing to do/);
  assert.equal(
    readFileSync(path.join(runDir, 'demos.jsonl'), 'utf8'),
    readFileSync(path.join(runDir, 'whole.jsonl'), 'utf8'),
  );
});
