// Filtered behaviour cloning, TTI's learner on our policy: every step of every kept trajectory is
// one sample, the loss is the cross-entropy of the chosen candidate under the policy's softmax,
// optimised with Adam and global-norm gradient clipping. Adam is written here rather than taken
// from tf.train.adam because its moments must be exported and imported synchronously
// (checkpoints, the learner's restart), and tfjs's optimizer only offers async getWeights.
import { actionOfReply, buildCandidateSet } from './candidates.js';
import type { FeatureBatch, ObservationFeatures } from './features.js';
import { disposePacked, type PackedBatch, pack, type TfjsPolicy } from './policy.js';
import { tf } from './tf.js';
import type { PolicyInput, TensorFrames, TrainingStep, TrajectoryForTraining } from './types.js';

/** Every step of a trajectory as (PolicyInput, chosen action); history from earlier replies. */
export function trainingSteps(trajectory: TrajectoryForTraining): TrainingStep[] {
  const history: string[] = [];
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
    };
    history.push(action);
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
}

interface Sample {
  step: TrainingStep;
  target: number;
}

export class BcTrainer {
  readonly options: Required<TrainerOptions>;
  private readonly m = new Map<string, tf.Variable>();
  private readonly v = new Map<string, tf.Variable>();
  private t = 0;

  constructor(
    readonly policy: TfjsPolicy,
    options: TrainerOptions,
  ) {
    this.options = { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, scorePenalty: 0, ...options };
    for (const [name, variable] of policy.variables) {
      this.m.set(name, tf.variable(tf.zerosLike(variable), false));
      this.v.set(name, tf.variable(tf.zerosLike(variable), false));
    }
  }

  /** Adam steps taken so far. */
  get steps(): number {
    return this.t;
  }

  /** Which candidate each step chose; -1 when the action is not a candidate. */
  static targetOf(step: TrainingStep, features: ObservationFeatures): number {
    return features.candidates.findIndex((c) => c.action === step.action);
  }

  train(steps: TrainingStep[], options: TrainOptions): TrainReport {
    const started = performance.now();
    // Targets first (candidates only, cheap), so skipped steps are known before any update.
    const samples: Sample[] = [];
    let skipped = 0;
    for (const step of steps) {
      const target = buildCandidateSet(step.input).candidates.findIndex((c) => c.action === step.action);
      if (target < 0) skipped += 1;
      else samples.push({ step, target });
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
      const order = shuffle(samples.length, options.random);
      lastEpochLoss = 0;
      lastEpochUpdates = 0;
      for (let from = 0; from < order.length; from += batchSize) {
        const batch = order.slice(from, from + batchSize).map((i) => samples[i]!);
        // Features are rebuilt per batch rather than kept: a step's features take ~100-200 KB.
        const features = this.policy.featurizeBatch(
          batch.map((s) => s.step.input),
          true,
        );
        const { loss, norm } = this.update(
          features,
          batch.map((s) => s.target),
        );
        lastEpochLoss += loss;
        lastEpochUpdates += 1;
        normSum += norm;
        updates += 1;
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

  /** Mean cross-entropy of the targets under the current policy (no update). */
  evaluate(features: FeatureBatch | ObservationFeatures[], targets: number[]): number {
    const packed = pack(features);
    try {
      const logits = this.policy.logitsTensor(packed);
      const loss = tf.tidy(() => this.lossOf(packed, targets, logits));
      const value = loss.dataSync()[0]!;
      tf.dispose([logits, loss]);
      return value;
    } finally {
      disposePacked(packed);
    }
  }

  /**
   * Mean cross-entropy of the targets: per observation, logsumexp over its candidates minus the
   * target's logit. Observations are contiguous runs of candidates, so the per-observation sums
   * are one matMul with a [B × N] segment matrix (no gather, which is slow on wasm); each run is
   * shifted by its own max (a constant) for stability.
   */
  private lossOf(packed: PackedBatch, targets: number[], logits: tf.Tensor1D): tf.Scalar {
    const B = targets.length;
    const N = packed.total;
    const values = logits.dataSync();
    const shift = new Float32Array(N);
    const maxes = new Float32Array(B);
    const segments = new Float32Array(B * N);
    const chosen = new Float32Array(N);
    packed.sizes.forEach((n, b) => {
      const from = packed.offsets[b]!;
      let m = -Infinity;
      for (let r = from; r < from + n; r++) m = Math.max(m, values[r]!);
      maxes[b] = m;
      shift.fill(m, from, from + n);
      segments.fill(1, b * N + from, b * N + from + n);
      chosen[from + targets[b]!] = 1;
    });
    const e = tf.exp(tf.sub(logits, tf.tensor1d(shift)));
    const sums = tf.matMul(tf.tensor2d(segments, [B, N]), tf.reshape(e, [N, 1]));
    const lse = tf.add(tf.log(tf.reshape(sums, [B])), tf.tensor1d(maxes));
    const picked = tf.sum(tf.mul(logits, tf.tensor1d(chosen)));
    const crossEntropy: tf.Scalar = tf.mul(tf.sub(tf.sum(lse), picked), tf.scalar(1 / B));
    const lambda = this.options.scorePenalty;
    if (lambda <= 0) return crossEntropy;
    // sum and mul: the ops whose gradients src/model/tf.ts registers
    const score = tf.sub(logits, packed.prior);
    return tf.add(crossEntropy, tf.mul(tf.sum(tf.mul(score, score)), tf.scalar(lambda / N))) as tf.Scalar;
  }

  /** One Adam step on a batch; returns the loss and the gradient's global norm before clipping. */
  private update(features: FeatureBatch, targets: number[]): { loss: number; norm: number } {
    const packed = pack(features);
    const policy = this.policy;
    const d = policy.options.embedDim;
    const bags = policy.bags(packed);
    // The pooled bags enter the graph as variables so variableGrads returns their gradients too.
    const bagVars = bags
      ? {
          candidate: tf.variable(tf.tensor2d(bags.candidate, [packed.total, d]), true),
          context: tf.variable(tf.tensor2d(bags.context, [packed.total, d]), true),
          intent: tf.variable(tf.tensor2d(bags.intent, [packed.total, d]), true),
          state: tf.variable(tf.tensor2d(bags.state, [packed.total, d]), true),
        }
      : null;
    try {
      const weights = [...policy.variables].filter(([name]) => name !== 'embedding');
      const trainable = [...weights.map(([, v]) => v), ...(bagVars ? Object.values(bagVars) : [])];
      return tf.tidy(() => {
        const { value, grads } = tf.variableGrads(
          () => this.lossOf(packed, targets, policy.logitsFrom(packed, bagVars)),
          trainable,
        );
        // variableGrads keys gradients by tfjs's own (unique, generated) variable names.
        const gradients = new Map<string, tf.Tensor>();
        for (const [name, v] of weights) gradients.set(name, grads[v.name]!);
        if (bagVars) {
          const g = (v: tf.Variable) => grads[v.name]!.dataSync() as Float32Array;
          const gE = policy.bagGradient(packed, {
            candidate: g(bagVars.candidate),
            context: g(bagVars.context),
            intent: g(bagVars.intent),
            state: g(bagVars.state),
          });
          gradients.set('embedding', tf.tensor2d(gE, [policy.options.buckets, d]));
        }
        const norm = Math.sqrt(
          [...gradients.values()].reduce((sum, g) => sum + tf.sum(tf.square(g)).dataSync()[0]!, 0),
        );
        const clip = this.options.clipNorm;
        const scale = clip > 0 && norm > clip ? clip / norm : 1;
        this.t += 1;
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
          const p = policy.variables.get(name)!;
          p.assign(tf.sub(p, step));
        }
        return { loss: value.dataSync()[0]!, norm };
      });
    } finally {
      if (bagVars) tf.dispose(Object.values(bagVars));
      disposePacked(packed);
    }
  }

  /** Adam's moments (m/NAME, v/NAME) and its step count (a 1-element "t" frame). */
  exportState(): TensorFrames {
    const specs: TensorFrames['specs'] = [{ name: 't', dtype: 'float32', shape: [1] }];
    const frames: Buffer[] = [Buffer.from(new Float32Array([this.t]).buffer)];
    for (const [prefix, map] of [
      ['m', this.m],
      ['v', this.v],
    ] as const) {
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
    const updates: [tf.Variable, Float32Array][] = [];
    for (const [prefix, map] of [
      ['m', this.m],
      ['v', this.v],
    ] as const) {
      for (const [name, variable] of map) {
        const entry = byName.get(`${prefix}/${name}`);
        if (!entry?.frame) throw new Error(`optimizer state has no ${prefix}/${name}`);
        if (
          entry.spec.shape.join(',') !== variable.shape.join(',') ||
          entry.frame.byteLength !== variable.size * 4
        )
          throw new Error(
            `optimizer state ${prefix}/${name} has shape [${entry.spec.shape.join(',')}], the policy needs [${variable.shape.join(',')}]`,
          );
        const data = new Float32Array(variable.size);
        new Uint8Array(data.buffer).set(entry.frame);
        updates.push([variable, data]);
      }
    }
    const tData = new Float32Array(1);
    new Uint8Array(tData.buffer).set(t.frame);
    for (const [variable, data] of updates) variable.assign(tf.tensor(data, variable.shape, 'float32'));
    this.t = tData[0]!;
  }

  dispose(): void {
    for (const v of [...this.m.values(), ...this.v.values()]) v.dispose();
  }
}

function shuffle(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
