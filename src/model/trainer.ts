// The trainer of the shared network: the mechanics every learner objective (objective.ts) trains
// through. It encodes each step once, batches steps of similar candidate counts, and makes one
// update per batch: the objective's loss (filtered-bc.ts imitationLoss for the policy, awr.ts
// criticLoss for the critic head), its gradient, a global-norm clip, and Adam (optimizer.ts:
// tfjs's own on the dense weights, a lazy one on the embedding's touched rows).
import { criticLoss } from './awr.js';
import {
  dropTokens,
  type EncodedBatch,
  type EncodedObservation,
  encodeObservation,
  padBatch,
} from './encode.js';
import { imitationLoss } from './filtered-bc.js';
import {
  batchTensors,
  disposeBatchTensors,
  embeddingGradient,
  forwardGraph,
  logitsGraph,
  type PooledInputs,
  poolInputs,
} from './network.js';
import { PolicyAdam, type PolicyOptimizer } from './optimizer.js';
import type { TfjsPolicy } from './policy.js';
import { logPrior } from './prior.js';
import { tf } from './tf.js';
import type { PolicyInput, TensorFrames, TrainingStep } from './types.js';

export interface TrainOptions {
  epochs: number;
  /** Observations per update. */
  batchSize: number;
  /** Uniform [0, 1) source for shuffling. */
  random: () => number;
  /**
   * Keep making passes until at least this many updates were made (default 0: exactly `epochs`).
   * TTI's first iterations keep a few dozen steps, one or two batches: a pass or two moves
   * nothing, while 40–100 updates make them count (docs/model.md, "Few successes").
   */
  minUpdates?: number;
  /** Called after each update (progress bars). */
  onUpdate?: (updates: number, loss: number) => void;
  /**
   * policy (default): the weighted cross-entropy moves the scorer, the encoder and the embedding;
   * critic: the squared error of V against each step's `valueTarget` moves the critic head
   * (value/*) alone, on the encoder as it is, so learning values never disturbs the policy.
   */
  mode?: 'policy' | 'critic';
}

export interface TrainReport {
  /** Mean loss (nats per sample) over the last epoch's updates. */
  loss: number;
  /** Samples trained on per epoch (steps whose action is a candidate). */
  samples: number;
  /** Passes made over the samples (more than asked when minUpdates needed them). */
  epochs: number;
  /** Steps whose action is not among the candidates rebuilt from their input. */
  skipped: number;
  updates: number;
  samplesPerSec: number;
  /** Mean global gradient norm before clipping. */
  gradNorm: number;
}

export interface TrainerOptions {
  learningRate: number;
  /** Global-norm clip; 0 or less turns clipping off. */
  clipNorm: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  /**
   * Weight of a penalty on the learned score's square (mean over every candidate of the batch).
   * Cross-entropy alone can fit a few kept steps by pushing whole kinds of candidates down (every
   * answer, every click at step 0), which carries over to tasks nothing was kept of; the penalty
   * holds scores of candidates the data does not speak for near 0, where the policy is its prior.
   */
  scorePenalty?: number;
  /** Word dropout while training (encode.ts, dropTokens): 0 turns it off. */
  wordDropout?: number;
}

interface Sample {
  step: TrainingStep;
  target: number;
  candidates: number;
}

/** What one batch's loss reads besides the encoded observations. */
interface BatchTargets {
  /** The chosen candidate of each observation. */
  chosen: number[];
  /** Each observation's cross-entropy weight. */
  weights: number[];
  /** The critic's target per observation, NaN where the step has none; null in the policy's updates. */
  values: Float32Array | null;
}

export class BcTrainer {
  readonly options: Required<TrainerOptions>;
  private readonly optimizer: PolicyOptimizer;
  /**
   * Encoded samples, kept while their steps live: an observation is encoded once, not once per
   * epoch (≈2 ms a step against ≈15 ms of training on it).
   */
  private cache = new WeakMap<TrainingStep, EncodedObservation>();

  /** `optimizer`: Adam as optimizer.ts makes it, unless given (the equivalence test, the bench). */
  constructor(
    readonly policy: TfjsPolicy,
    options: TrainerOptions,
    optimizer?: (policy: TfjsPolicy, adam: Required<TrainerOptions>) => PolicyOptimizer,
  ) {
    this.options = {
      beta1: 0.9,
      beta2: 0.999,
      epsilon: 1e-8,
      scorePenalty: 0,
      wordDropout: 0,
      ...options,
    };
    this.optimizer = optimizer ? optimizer(policy, this.options) : new PolicyAdam(policy, this.options);
  }

  /** Adam steps taken so far. */
  get steps(): number {
    return this.optimizer.steps;
  }

  private encoded(step: TrainingStep): EncodedObservation {
    let e = this.cache.get(step);
    if (!e) {
      e = encodeObservation(step.input, { buckets: this.policy.options.buckets });
      this.cache.set(step, e);
    }
    return e;
  }

  train(steps: TrainingStep[], options: TrainOptions): TrainReport {
    const started = performance.now();
    // Targets first, so skipped steps are known before any update.
    const samples: Sample[] = [];
    let skipped = 0;
    const critic = options.mode === 'critic';
    for (const step of steps) {
      if (critic && step.valueTarget === undefined) continue;
      const candidates = this.encoded(step).candidates;
      const target = candidates.findIndex((c) => c.action === step.action);
      if (target < 0) {
        skipped += 1;
        this.cache.delete(step);
      } else samples.push({ step, target, candidates: candidates.length });
    }
    const batchSize = Math.max(1, Math.floor(options.batchSize));
    let updates = 0;
    let lastEpochLoss = 0;
    let lastEpochUpdates = 0;
    let normSum = 0;
    const minUpdates = samples.length > 0 ? Math.max(0, options.minUpdates ?? 0) : 0;
    let epochs = 0;
    for (let epoch = 0; epoch < options.epochs || updates < minUpdates; epoch++) {
      epochs += 1;
      lastEpochLoss = 0;
      lastEpochUpdates = 0;
      for (const batch of batchesBySize(samples, batchSize, options.random)) {
        const encoded = dropTokens(
          padBatch(batch.map((s) => this.encoded(s.step))),
          this.options.wordDropout,
          options.random,
        );
        const targets = targetsOf(batch, critic);
        const { loss, norm } = critic ? this.updateCritic(encoded, targets) : this.update(encoded, targets);
        lastEpochLoss += loss;
        lastEpochUpdates += 1;
        normSum += norm;
        updates += 1;
        options.onUpdate?.(updates, loss);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      loss: lastEpochUpdates > 0 ? lastEpochLoss / lastEpochUpdates : 0,
      samples: samples.length,
      epochs,
      skipped,
      updates,
      samplesPerSec: seconds > 0 ? (samples.length * epochs) / seconds : 0,
      gradNorm: updates > 0 ? normSum / updates : 0,
    };
  }

  private graphInputs(encoded: EncodedBatch, pooled: PooledInputs) {
    const { B, C, T } = encoded;
    return {
      candidate: tf.tensor2d(pooled.candidate, [B * C, pooled.candidate.length / (B * C)]),
      token: tf.tensor2d(pooled.token, [B * T, pooled.token.length / (B * T)]),
      observation: tf.tensor2d(pooled.observation, [B, pooled.observation.length / B]),
    };
  }

  /** Mean loss of the targets under the current policy (no update). */
  evaluate(inputs: PolicyInput[], targets: number[]): number {
    const encoded = this.policy.encode(inputs);
    const o = this.policy.options;
    const fixed = batchTensors(encoded, logPrior(encoded, o.prior));
    const pooled = poolInputs(encoded, this.policy.embedding, o);
    try {
      return tf.tidy(() => {
        const inputs = this.graphInputs(encoded, pooled);
        const logits = logitsGraph(this.policy.variables, o, encoded, inputs, fixed);
        const target = { chosen: targets, weights: targets.map(() => 1) };
        return imitationLoss(encoded, target, logits, fixed.prior, this.options.scorePenalty).dataSync()[0]!;
      });
    } finally {
      disposeBatchTensors(fixed);
    }
  }

  /**
   * One update of the policy (the scorer, the encoder and the embedding) by the imitation loss;
   * returns the loss and the gradient's global norm before clipping.
   */
  private update(encoded: EncodedBatch, targets: BatchTargets): { loss: number; norm: number } {
    const policy = this.policy;
    const o = policy.options;
    const pooled = poolInputs(encoded, policy.embedding, o);
    const fixed = batchTensors(encoded, logPrior(encoded, o.prior));
    const inputs = this.graphInputs(encoded, pooled);
    try {
      // The policy's loss reads the logits alone; the critic head has its own updates (updateCritic).
      const weights = [...policy.variables].filter(([name]) => !name.startsWith('value/'));
      return tf.tidy(() => {
        // One backward pass for the weights and the pooled inputs (whose gradients flow into the
        // embedding rows).
        const names = weights.map(([name]) => name);
        const f = (...xs: tf.Tensor[]) => {
          const [candidate, token, observation] = xs as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
          const W = new Map(names.map((name, i) => [name, xs[3 + i]!]));
          const logits = logitsGraph(W, o, encoded, { candidate, token, observation }, fixed);
          return imitationLoss(encoded, targets, logits, fixed.prior, this.options.scorePenalty);
        };
        const { value, grads: all } = tf.valueAndGrads(f)([
          inputs.candidate,
          inputs.token,
          inputs.observation,
          ...weights.map(([, v]) => v),
        ]);
        const inputGrads = all.slice(0, 3);
        const gradients = new Map<string, tf.Tensor>(names.map((name, i) => [name, all[3 + i]!]));
        const rows = embeddingGradient(
          encoded,
          {
            candidate: inputGrads[0]!.dataSync() as Float32Array,
            token: inputGrads[1]!.dataSync() as Float32Array,
            observation: inputGrads[2]!.dataSync() as Float32Array,
          },
          o,
        );
        const denseSquares = tf.addN([...gradients.values()].map((g) => tf.sum(tf.square(g))));
        const norm = Math.sqrt(rows.squaredNorm + denseSquares.dataSync()[0]!);
        this.optimizer.step(gradients, this.clipScale(norm), rows);
        return { loss: value.dataSync()[0]!, norm };
      });
    } finally {
      tf.dispose(Object.values(inputs));
      disposeBatchTensors(fixed);
    }
  }

  /** What the gradients are multiplied by: the global-norm clip. */
  private clipScale(norm: number): number {
    const clip = this.options.clipNorm;
    return clip > 0 && norm > clip ? clip / norm : 1;
  }

  /** One update of the critic head alone, by the critic's loss on the batch's targets. */
  private updateCritic(encoded: EncodedBatch, targets: BatchTargets): { loss: number; norm: number } {
    const policy = this.policy;
    const o = policy.options;
    const pooled = poolInputs(encoded, policy.embedding, o);
    const fixed = batchTensors(encoded, logPrior(encoded, o.prior));
    const inputs = this.graphInputs(encoded, pooled);
    const heads = [...policy.variables].filter(([name]) => name.startsWith('value/'));
    try {
      return tf.tidy(() => {
        const f = (...xs: tf.Tensor[]) => {
          const W = new Map<string, tf.Tensor>(policy.variables);
          heads.forEach(([name], i) => {
            W.set(name, xs[i]!);
          });
          return criticLoss(forwardGraph(W, o, encoded, inputs, fixed).value, targets.values!);
        };
        const { value, grads } = tf.valueAndGrads(f)(heads.map(([, v]) => v));
        const norm = Math.sqrt(tf.addN(grads.map((g) => tf.sum(tf.square(g)))).dataSync()[0]!);
        const gradients = new Map(heads.map(([name], i) => [name, grads[i]!]));
        this.optimizer.step(gradients, this.clipScale(norm), null);
        return { loss: value.dataSync()[0]!, norm };
      });
    } finally {
      tf.dispose(Object.values(inputs));
      disposeBatchTensors(fixed);
    }
  }

  /** The critic's estimate of the return from each step's observation (no update). */
  values(steps: readonly TrainingStep[], batchSize = 32): Float32Array {
    const out = new Float32Array(steps.length);
    const o = this.policy.options;
    for (let at = 0; at < steps.length; at += batchSize) {
      const chunk = steps.slice(at, at + batchSize);
      const encoded = padBatch(chunk.map((s) => this.encoded(s)));
      const pooled = poolInputs(encoded, this.policy.embedding, o);
      const fixed = batchTensors(encoded, logPrior(encoded, o.prior));
      try {
        const v = tf.tidy(() =>
          forwardGraph(
            this.policy.variables,
            o,
            encoded,
            this.graphInputs(encoded, pooled),
            fixed,
          ).value.dataSync(),
        );
        out.set(v, at);
      } finally {
        disposeBatchTensors(fixed);
      }
    }
    return out;
  }

  /** Adam's moments (m/NAME, v/NAME) and its step count (a 1-element "t" frame). */
  exportState(): Promise<TensorFrames> {
    return this.optimizer.exportState();
  }

  /** On a fresh trainer: the state exportState gave, of this trainer's policy shape. */
  importState(state: TensorFrames): Promise<void> {
    return this.optimizer.importState(state);
  }

  dispose(): void {
    this.optimizer.dispose();
  }
}

function targetsOf(batch: readonly Sample[], critic: boolean): BatchTargets {
  return {
    chosen: batch.map((s) => s.target),
    weights: batch.map((s) => s.step.weight ?? 1),
    values: critic ? Float32Array.from(batch, (s) => s.step.valueTarget ?? Number.NaN) : null,
  };
}

/**
 * An epoch's batches: samples shuffled, then cut into chunks of similar candidate counts (a batch
 * is padded to its largest), then the batches shuffled.
 */
function batchesBySize<S extends { candidates: number }>(
  samples: S[],
  batchSize: number,
  random: () => number,
): S[][] {
  const order = shuffle(samples.length, random);
  const window = batchSize * 16;
  const batches: S[][] = [];
  for (let from = 0; from < order.length; from += window) {
    const chunk = order
      .slice(from, from + window)
      .sort((a, b) => samples[a]!.candidates - samples[b]!.candidates);
    for (let k = 0; k < chunk.length; k += batchSize)
      batches.push(chunk.slice(k, k + batchSize).map((i) => samples[i]!));
  }
  return shuffle(batches.length, random).map((i) => batches[i]!);
}

function shuffle(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
