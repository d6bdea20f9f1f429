// Filtered behaviour cloning, TTI's learner on our policy: every step of every kept trajectory is
// one sample, the loss is the cross-entropy of the chosen candidate under the policy's softmax,
// optimised with Adam and global-norm gradient clipping. Adam is written here rather than taken
// from tf.train.adam because its moments must be exported and imported synchronously
// (checkpoints, the learner's restart), and tfjs's optimizer only offers async getWeights.
import { actionOfReply } from './candidates.js';
import {
  dropTokens,
  type EncodedBatch,
  type EncodedObservation,
  encodeObservation,
  padBatch,
} from './encode.js';
import {
  batchTensors,
  disposeBatchTensors,
  embeddingGradient,
  forwardGraph,
  logitsGraph,
  type PooledInputs,
  poolInputs,
} from './network.js';
import type { TfjsPolicy } from './policy.js';
import { logPrior } from './prior.js';
import { tf } from './tf.js';
import { actionSignature } from './trail.js';
import type { PolicyInput, TensorFrames, TrainingStep, TrajectoryForTraining } from './types.js';

/** Every step of a trajectory as (PolicyInput, chosen action); history and trail from earlier steps. */
export function trainingSteps(trajectory: TrajectoryForTraining): TrainingStep[] {
  const history: string[] = [];
  const trail: { url: string; action: string }[] = [];
  return trajectory.steps.map((s, step) => {
    const action = actionOfReply(s.reply);
    const input: PolicyInput = {
      intent: trajectory.intent,
      url: s.url,
      nodes: s.nodes,
      history: [...history],
      step,
      horizon: trajectory.horizon,
      note: s.note,
      ...(trajectory.offers ? { offers: trajectory.offers } : {}),
      trail: [...trail],
    };
    history.push(action);
    trail.push({ url: s.url, action: actionSignature(action, s.nodes) });
    return { input, action };
  });
}

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

/** Adam's first and second moments of one weight. */
interface Moments {
  m: Float32Array;
  v: Float32Array;
}

export class BcTrainer {
  readonly options: Required<TrainerOptions>;
  /** Moments of the dense weights (tf) and of the embedding (JavaScript, updated row by row). */
  private readonly m = new Map<string, tf.Variable>();
  private readonly v = new Map<string, tf.Variable>();
  private readonly embedding: Moments;
  private t = 0;
  /**
   * Encoded samples, kept while their steps live: an observation is encoded once, not once per
   * epoch (≈2 ms a step against ≈15 ms of training on it).
   */
  private cache = new WeakMap<TrainingStep, EncodedObservation>();

  constructor(
    readonly policy: TfjsPolicy,
    options: TrainerOptions,
  ) {
    this.options = {
      beta1: 0.9,
      beta2: 0.999,
      epsilon: 1e-8,
      scorePenalty: 0,
      wordDropout: 0,
      ...options,
    };
    for (const [name, variable] of policy.variables) {
      this.m.set(name, tf.variable(tf.zerosLike(variable), false));
      this.v.set(name, tf.variable(tf.zerosLike(variable), false));
    }
    this.embedding = {
      m: new Float32Array(policy.embedding.length),
      v: new Float32Array(policy.embedding.length),
    };
  }

  /** Adam steps taken so far. */
  get steps(): number {
    return this.t;
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

  /**
   * Mean weighted cross-entropy of the chosen candidates over the batch: per observation,
   * logsumexp over its candidates minus the chosen one's logit, times the step's weight (1 in
   * filtered BC). Each row is shifted by its own max (a constant). Plus the score penalty.
   */
  private lossOf(
    encoded: EncodedBatch,
    targets: BatchTargets,
    logits: tf.Tensor2D,
    prior: tf.Tensor2D,
  ): tf.Scalar {
    const { B, C } = encoded;
    const values = logits.dataSync();
    const maxes = new Float32Array(B);
    const chosen = new Float32Array(B * C);
    const weights = new Float32Array(B);
    for (let b = 0; b < B; b++) {
      let m = -Infinity;
      for (let c = 0; c < encoded.sizes[b]!; c++) m = Math.max(m, values[b * C + c]!);
      maxes[b] = m;
      weights[b] = targets.weights[b]!;
      chosen[b * C + targets.chosen[b]!] = weights[b]!;
    }
    const shift = tf.tensor2d(maxes, [B, 1]);
    const lse = tf.add(tf.log(tf.sum(tf.exp(tf.sub(logits, shift)), 1)), tf.reshape(shift, [B]));
    const picked = tf.sum(tf.mul(logits, tf.tensor2d(chosen, [B, C])));
    let loss: tf.Scalar = tf.mul(tf.sub(tf.sum(tf.mul(lse, tf.tensor1d(weights))), picked), tf.scalar(1 / B));
    const lambda = this.options.scorePenalty;
    if (lambda > 0) {
      const mask = tf.tensor2d(encoded.mask, [B, C]);
      const score = tf.mul(tf.sub(logits, prior), mask);
      const real = Math.max(
        1,
        encoded.sizes.reduce((a, b) => a + b, 0),
      );
      loss = tf.add(loss, tf.mul(tf.sum(tf.mul(score, score)), tf.scalar(lambda / real)));
    }
    return loss;
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
    const batchTargets: BatchTargets = { chosen: targets, weights: targets.map(() => 1), values: null };
    const encoded = this.policy.encode(inputs);
    const o = this.policy.options;
    const fixed = batchTensors(encoded, logPrior(encoded, o.prior));
    const pooled = poolInputs(encoded, this.policy.embedding, o);
    try {
      return tf.tidy(() => {
        const logits = logitsGraph(
          this.policy.variables,
          o,
          encoded,
          this.graphInputs(encoded, pooled),
          fixed,
        );
        return this.lossOf(encoded, batchTargets, logits, fixed.prior).dataSync()[0]!;
      });
    } finally {
      disposeBatchTensors(fixed);
    }
  }

  /** One Adam step on a batch; returns the loss and the gradient's global norm before clipping. */
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
          return this.lossOf(
            encoded,
            targets,
            logitsGraph(W, o, encoded, { candidate, token, observation }, fixed),
            fixed.prior,
          );
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
        let squares = rows.squaredNorm;
        const denseSquares = tf.addN([...gradients.values()].map((g) => tf.sum(tf.square(g))));
        squares += denseSquares.dataSync()[0]!;
        const norm = Math.sqrt(squares);
        const clip = this.options.clipNorm;
        const scale = clip > 0 && norm > clip ? clip / norm : 1;
        this.t += 1;
        this.adamStep(gradients, scale);
        const { beta1, beta2, epsilon, learningRate } = this.options;
        const c1 = 1 - beta1 ** this.t;
        const c2 = 1 - beta2 ** this.t;
        // Lazy Adam on the embedding: only the rows this batch touched move (their moments too).
        const E = policy.embedding;
        const { m, v } = this.embedding;
        const d = o.embedDim;
        for (const row of rows.rows) {
          for (let k = row * d; k < row * d + d; k++) {
            const g = rows.gradient[k]! * scale;
            m[k] = beta1 * m[k]! + (1 - beta1) * g;
            v[k] = beta2 * v[k]! + (1 - beta2) * g * g;
            E[k]! -= (learningRate * m[k]!) / c1 / (Math.sqrt(v[k]! / c2) + epsilon);
          }
        }
        return { loss: value.dataSync()[0]!, norm };
      });
    } finally {
      tf.dispose(Object.values(inputs));
      disposeBatchTensors(fixed);
    }
  }

  /** Adam on dense weights, at step `this.t`, with gradients scaled by `scale` (the clip). */
  private adamStep(gradients: ReadonlyMap<string, tf.Tensor>, scale: number): void {
    const { beta1, beta2, epsilon, learningRate } = this.options;
    const c1 = 1 - beta1 ** this.t;
    const c2 = 1 - beta2 ** this.t;
    for (const [name, raw] of gradients) {
      const g = scale === 1 ? raw : tf.mul(raw, tf.scalar(scale));
      const m = this.m.get(name)!;
      const v = this.v.get(name)!;
      m.assign(tf.add(tf.mul(m, tf.scalar(beta1)), tf.mul(g, tf.scalar(1 - beta1))));
      v.assign(tf.add(tf.mul(v, tf.scalar(beta2)), tf.mul(tf.square(g), tf.scalar(1 - beta2))));
      const step = tf.div(
        tf.mul(m, tf.scalar(learningRate / c1)),
        tf.add(tf.sqrt(tf.mul(v, tf.scalar(1 / c2))), tf.scalar(epsilon)),
      );
      const p = this.policy.variables.get(name)!;
      p.assign(tf.sub(p, step));
    }
  }

  /** One Adam step of the critic head alone: squared error of V against the batch's targets. */
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
          const { value } = forwardGraph(W, o, encoded, inputs, fixed);
          const has = new Float32Array(encoded.B);
          const target = new Float32Array(encoded.B);
          let n = 0;
          for (let b = 0; b < encoded.B; b++) {
            const t = targets.values![b]!;
            if (Number.isNaN(t)) continue;
            has[b] = 1;
            target[b] = t;
            n += 1;
          }
          const error = tf.mul(tf.sub(value, tf.tensor1d(target)), tf.tensor1d(has));
          return tf.mul(tf.sum(tf.mul(error, error)), tf.scalar(1 / Math.max(1, n))) as tf.Scalar;
        };
        const { value, grads } = tf.valueAndGrads(f)(heads.map(([, v]) => v));
        const norm = Math.sqrt(tf.addN(grads.map((g) => tf.sum(tf.square(g)))).dataSync()[0]!);
        const clip = this.options.clipNorm;
        const scale = clip > 0 && norm > clip ? clip / norm : 1;
        this.t += 1;
        this.adamStep(new Map(heads.map(([name], i) => [name, grads[i]!])), scale);
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
  exportState(): TensorFrames {
    const specs: TensorFrames['specs'] = [{ name: 't', dtype: 'float32', shape: [1] }];
    const frames: Buffer[] = [Buffer.from(new Float32Array([this.t]).buffer)];
    const shape = [this.policy.options.buckets, this.policy.options.embedDim];
    for (const [prefix, map] of [
      ['m', this.m],
      ['v', this.v],
    ] as const) {
      const e = this.embedding[prefix];
      specs.push({ name: `${prefix}/embedding`, dtype: 'float32', shape });
      frames.push(Buffer.from(e.buffer, e.byteOffset, e.byteLength));
      for (const [name, variable] of map) {
        const data = variable.dataSync() as Float32Array;
        specs.push({ name: `${prefix}/${name}`, dtype: 'float32', shape: [...variable.shape] });
        frames.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      }
    }
    return { specs, frames };
  }

  importState(state: TensorFrames): void {
    const byName = new Map(state.specs.map((s, i) => [s.name, { spec: s, frame: state.frames[i] }]));
    const t = byName.get('t');
    if (t?.frame?.byteLength !== 4 || !t.frame) throw new Error('optimizer state has no step count "t"');
    const read = (name: string, shape: number[]): Float32Array => {
      const entry = byName.get(name);
      if (!entry?.frame) throw new Error(`optimizer state has no ${name}`);
      const size = shape.reduce((a, b) => a * b, 1);
      if (entry.spec.shape.join(',') !== shape.join(',') || entry.frame.byteLength !== size * 4)
        throw new Error(
          `optimizer state ${name} has shape [${entry.spec.shape.join(',')}], the policy needs [${shape.join(',')}]`,
        );
      const data = new Float32Array(size);
      new Uint8Array(data.buffer).set(entry.frame);
      return data;
    };
    const shape = [this.policy.options.buckets, this.policy.options.embedDim];
    const embedding = { m: read('m/embedding', shape), v: read('v/embedding', shape) };
    const updates: [tf.Variable, Float32Array][] = [];
    for (const [prefix, map] of [
      ['m', this.m],
      ['v', this.v],
    ] as const) {
      for (const [name, variable] of map)
        updates.push([variable, read(`${prefix}/${name}`, [...variable.shape])]);
    }
    const tData = new Float32Array(1);
    new Uint8Array(tData.buffer).set(t.frame);
    for (const [variable, data] of updates) variable.assign(tf.tensor(data, variable.shape, 'float32'));
    this.embedding.m.set(embedding.m);
    this.embedding.v.set(embedding.v);
    this.t = tData[0]!;
  }

  dispose(): void {
    for (const v of [...this.m.values(), ...this.v.values()]) v.dispose();
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
