// The trainer's Adam is tfjs's own (tf.train.adam) on the dense weights since it replaced the one
// the project wrote (kept in test/helpers/hand-written-adam.ts). Driven by the same gradients (the
// real network's, on the same batches, through policy and critic updates), both move a copy of the
// policy to the same moments, bit for bit, and the same weights within float32 rounding; and a checkpoint the
// hand-written Adam wrote (test/model/hand-written-adam-checkpoints: written by its reference copy,
// test/helpers/hand-written-adam.ts, at the network shape of the widened candidate kinds)
// loads its state exactly and goes on as the hand-written Adam would.
//
// The same gradients, not two training runs side by side: Adam divides each gradient by its own
// running size, so a weight whose gradient is rounding noise (scorer/b2, a bias every logit shares,
// which the softmax cancels) moves by about the learning rate in the noise's direction. A rounding
// difference of 1e-7 in one update changes that noise in the next, and two runs part by ~lr on such
// weights after a few updates, whichever two Adams they use.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import {
  BcTrainer,
  loadBackend,
  loadModelCheckpoint,
  PolicyAdam,
  type PolicyOptimizer,
  seededRandom,
  type TensorFrames,
  TfjsPolicy,
  type TrainingStep,
} from '../../src/model/index.js';
import { projectRoot } from '../../src/util/paths.js';
import { HandWrittenAdam } from '../helpers/hand-written-adam.js';
import { input, PRODUCTS } from './fixtures.js';

before(async () => {
  await loadBackend('auto');
});

const priceSteps = (): TrainingStep[] =>
  PRODUCTS.map(([name, price], k) => ({
    input: input({ intent: `What is the price of ${name}?` }),
    action: `ANSWER [${price}]`,
    valueTarget: k % 2,
  }));

/** Gives every update's gradients to the trainer's optimizer and to a second one on a twin policy. */
class Both implements PolicyOptimizer {
  constructor(
    readonly own: PolicyOptimizer,
    readonly twin: PolicyOptimizer,
  ) {}
  get steps() {
    return this.own.steps;
  }
  step(...args: Parameters<PolicyOptimizer['step']>) {
    this.twin.step(...args);
    this.own.step(...args);
  }
  exportState() {
    return this.own.exportState();
  }
  async importState(state: TensorFrames) {
    await this.own.importState(state);
    await this.twin.importState(state);
  }
  dispose() {
    this.own.dispose();
    this.twin.dispose();
  }
}

function floats(frame: Buffer): Float32Array {
  const out = new Float32Array(frame.byteLength / 4);
  new Uint8Array(out.buffer).set(frame);
  return out;
}

/** The largest difference between two sets of frames, relative to the frame's largest value. */
function largestDifference(a: TensorFrames, b: TensorFrames): { name: string; diff: number; scale: number } {
  let worst = { name: '', diff: 0, scale: 0 };
  a.specs.forEach((spec, i) => {
    assert.equal(spec.name, b.specs[i]!.name);
    const x = floats(a.frames[i]!);
    const y = floats(b.frames[i]!);
    let diff = 0;
    let scale = 0;
    for (let k = 0; k < x.length; k++) {
      diff = Math.max(diff, Math.abs(x[k]! - y[k]!));
      scale = Math.max(scale, Math.abs(x[k]!), Math.abs(y[k]!));
    }
    if (diff / Math.max(scale, 1e-12) > worst.diff / Math.max(worst.scale, 1e-12))
      worst = { name: spec.name, diff, scale };
  });
  return worst;
}

/**
 * Moments bit for bit (the two compute them with the same ops); weights within a thousandth of one
 * update's step (the learning rate), as the two round the step's division differently.
 */
async function assertSame(
  a: { policy: TfjsPolicy; optimizer: PolicyOptimizer },
  b: typeof a,
  learningRate: number,
) {
  const weights = largestDifference(a.policy.exportWeights(), b.policy.exportWeights());
  assert.ok(
    weights.diff <= 1e-3 * learningRate,
    `weights differ by ${weights.diff} in ${weights.name} (largest ${weights.scale})`,
  );
  const [x, y] = [await a.optimizer.exportState(), await b.optimizer.exportState()];
  assert.equal(x.frames.length, y.frames.length);
  x.frames.forEach((frame, i) => {
    assert.ok(frame.equals(y.frames[i]!), `${x.specs[i]!.name} differs`);
  });
}

test('tfjs Adam and the hand-written one move the real network to the same weights and moments on the same batches', async () => {
  const o = { learningRate: 0.01, clipNorm: 1, scorePenalty: 0.01 };
  const twin = TfjsPolicy.create({ seed: 1 });
  const made: { both?: Both } = {};
  const trainer = new BcTrainer(TfjsPolicy.create({ seed: 1 }), o, (policy, adam) => {
    made.both = new Both(new PolicyAdam(policy, adam), new HandWrittenAdam(twin, adam));
    return made.both;
  });
  const start = twin.exportWeights();
  const steps = priceSteps();
  // 20 policy updates, 6 of the critic head alone (the other weights keep their moments), 4 more
  trainer.train(steps, { epochs: 10, batchSize: 2, random: seededRandom(7) });
  trainer.train(steps, { epochs: 3, batchSize: 2, mode: 'critic', random: seededRandom(8) });
  trainer.train(steps, { epochs: 2, batchSize: 2, random: seededRandom(9) });
  const { own, twin: reference } = made.both!;
  assert.deepEqual([own.steps, reference.steps], [30, 30]);
  const moved = largestDifference(trainer.policy.exportWeights(), start);
  assert.ok(moved.diff > 0.05, `the weights moved (${moved.name} by ${moved.diff})`);
  await assertSame(
    { policy: trainer.policy, optimizer: own },
    { policy: twin, optimizer: reference },
    o.learningRate,
  );
  trainer.dispose();
  trainer.policy.dispose();
  twin.dispose();
});

test('a checkpoint the hand-written Adam wrote loads its state exactly and trains on as it would have', async () => {
  const folder = path.join(projectRoot, 'test', 'model', 'hand-written-adam-checkpoints', 'v00000001');
  const loaded = loadModelCheckpoint(folder);
  const twin = loadModelCheckpoint(folder).policy;
  assert.ok(loaded.optimizerState);
  const made: { both?: Both } = {};
  const trainer = new BcTrainer(loaded.policy, { learningRate: 0.01, clipNorm: 1 }, (policy, adam) => {
    made.both = new Both(new PolicyAdam(policy, adam), new HandWrittenAdam(twin, adam));
    return made.both;
  });
  await trainer.importState(loaded.optimizerState);
  assert.equal(trainer.steps, 6);
  // tfjs's Adam holds the old moments bit for bit
  const state = await trainer.exportState();
  assert.deepEqual(
    state.specs,
    loaded.optimizerState.specs,
    'the state format (t, m/NAME, v/NAME) is the old one',
  );
  state.frames.forEach((frame, i) => {
    assert.ok(frame.equals(loaded.optimizerState!.frames[i]!), state.specs[i]!.name);
  });
  trainer.train(priceSteps(), { epochs: 3, batchSize: 2, random: seededRandom(2) });
  assert.equal(trainer.steps, 12);
  const { own, twin: reference } = made.both!;
  await assertSame({ policy: loaded.policy, optimizer: own }, { policy: twin, optimizer: reference }, 0.01);
  trainer.dispose();
  loaded.policy.dispose();
  twin.dispose();
});
