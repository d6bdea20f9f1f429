import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import {
  BcTrainer,
  CheckpointStore,
  loadBackend,
  loadModelCheckpoint,
  NoCheckpointError,
  saveModelCheckpoint,
  seededRandom,
  TfjsPolicy,
} from '../../src/model/index.js';
import { input } from './fixtures.js';

before(async () => {
  await loadBackend('auto');
});

const store = () => new CheckpointStore(mkdtempSync(path.join(tmpdir(), 'tti-model-ckpt-')), 3);

function trained(seed: number): { policy: TfjsPolicy; trainer: BcTrainer } {
  const policy = TfjsPolicy.create({ seed, hidden: 16 });
  const trainer = new BcTrainer(policy, { learningRate: 0.01, clipNorm: 1 });
  trainer.train([{ input: input(), action: 'ANSWER [$12.50]' }], {
    epochs: 2,
    batchSize: 1,
    random: seededRandom(seed),
  });
  return { policy, trainer };
}

test('a checkpoint restores weights, options, optimizer state and counters exactly', async () => {
  const s = store();
  const { policy, trainer } = trained(1);
  const state = await trainer.exportState();
  const where = saveModelCheckpoint(s, 4, policy, state, {
    iteration: 2,
    policyVersion: 4,
    samplesSeen: 2,
  });
  assert.equal(where, path.join(s.dir, 'v00000004'));
  for (const from of [where, s, s.dir]) {
    const loaded = loadModelCheckpoint(from);
    assert.equal(loaded.version, 4);
    assert.deepEqual(loaded.counters, { iteration: 2, policyVersion: 4, samplesSeen: 2 });
    assert.deepEqual(loaded.warnings, []);
    assert.deepEqual(loaded.policy.options, policy.options);
    loaded.policy.exportWeights().frames.forEach((f, i) => {
      assert.ok(f.equals(policy.exportWeights().frames[i]!));
    });
    assert.ok(loaded.optimizerState);
    const resumed = new BcTrainer(loaded.policy, { learningRate: 0.01, clipNorm: 1 });
    await resumed.importState(loaded.optimizerState);
    assert.equal(resumed.steps, 2);
    (await resumed.exportState()).frames.forEach((f, i) => {
      assert.ok(f.equals(state.frames[i]!));
    });
    resumed.dispose();
    loaded.policy.dispose();
  }
});

test('a policy saved without a trainer loads with no optimizer state', () => {
  const s = store();
  saveModelCheckpoint(s, 1, TfjsPolicy.create({ seed: 1, hidden: 8 }), null, {});
  assert.equal(loadModelCheckpoint(s).optimizerState, null);
});

test('a corrupted latest checkpoint falls back to the one before, with a warning', async () => {
  const s = store();
  const a = trained(1);
  const b = trained(2);
  saveModelCheckpoint(s, 1, a.policy, await a.trainer.exportState(), { iteration: 1 });
  saveModelCheckpoint(s, 2, b.policy, await b.trainer.exportState(), { iteration: 2 });
  writeFileSync(path.join(s.dir, 'v00000002', 'weights.bin'), Buffer.alloc(16));
  const loaded = loadModelCheckpoint(s.dir);
  assert.equal(loaded.version, 1);
  assert.deepEqual(loaded.counters, { iteration: 1 });
  assert.deepEqual(loaded.warnings, [
    'skipped checkpoint v2: weights.bin has 16 bytes, not ' +
      String(b.policy.exportWeights().frames.reduce((n, f) => n + f.byteLength, 0)),
  ]);
  assert.throws(() => loadModelCheckpoint(path.join(s.dir, 'v00000002')), /fails its size or sha256 check/);
});

test('an empty store is a NoCheckpointError', () => {
  assert.throws(() => loadModelCheckpoint(store()), NoCheckpointError);
});
