// The trainable policy: the network of network.ts scores every candidate action of an
// observation; a softmax over the candidates of score + log-prior is the policy. The prior
// (prior.ts) is general: uniform per action kind by default, or fitted to demonstrations. One
// batched forward pass scores a whole batch.
import { SeededRandom } from '../util/index.js';
import type { Candidate } from './candidates.js';
import {
  type EncodedBatch,
  type EncodedObservation,
  encodeBatch,
  encodeObservation,
  padBatch,
} from './encode.js';
import {
  batchTensors,
  DEFAULT_NETWORK_OPTIONS,
  disposeBatchTensors,
  forwardGraph,
  initialWeights,
  type NetworkOptions,
  poolInputs,
  weightShapes,
} from './network.js';
import { logPrior, type Prior, UNIFORM_PRIOR } from './prior.js';
import { registerGradients, tf } from './tf.js';
import { redundantActions } from './trail.js';
import type { ActOptions, PolicyDecision, PolicyInput, TensorFrames } from './types.js';

export interface PolicyOptions extends NetworkOptions {
  /** What the untrained policy does and the learned score adds to (prior.ts). */
  prior: Prior;
}

export const DEFAULT_POLICY_OPTIONS: PolicyOptions = {
  ...DEFAULT_NETWORK_OPTIONS,
  prior: UNIFORM_PRIOR,
};

/** A seeded stream (mulberry32, the run's own) for reproducible initialisation. */
export function seededRandom(seed: number): () => number {
  return new SeededRandom(seed).next;
}

export class TfjsPolicy {
  readonly options: PolicyOptions;
  /**
   * The token embedding table, [buckets × embedDim], in JavaScript: pooling and its gradient are
   * loops over a few hundred rows a batch (tfjs's gather costs µs per index on wasm), and a
   * trainer updates only the rows a batch touched.
   */
  readonly embedding: Float32Array;
  /** The dense weights by name, in a fixed order (the order of exportWeights, after the embedding). */
  readonly variables: Map<string, tf.Variable>;
  private disposed = false;

  private constructor(options: PolicyOptions, values: Map<string, Float32Array>) {
    registerGradients();
    this.options = options;
    const embedding = values.get('embedding');
    if (!embedding) throw new Error('no initial value for embedding');
    this.embedding = embedding;
    this.variables = new Map();
    for (const [name, shape] of weightShapes(options)) {
      const data = values.get(name);
      if (!data) throw new Error(`no initial value for ${name}`);
      this.variables.set(name, tf.variable(tf.tensor(data, shape, 'float32'), true, undefined, 'float32'));
    }
  }

  /** Every weight's name and shape for these options, in export order. */
  static shapes(o: NetworkOptions): Map<string, number[]> {
    return new Map([['embedding', [o.buckets, o.embedDim]], ...weightShapes(o)]);
  }

  /** A freshly initialised policy, seeded. */
  static create(options: Partial<PolicyOptions> & { seed?: number } = {}): TfjsPolicy {
    const { seed = 0, ...rest } = options;
    const o: PolicyOptions = {
      ...DEFAULT_POLICY_OPTIONS,
      ...rest,
      prior: {
        kindWeights: { ...UNIFORM_PRIOR.kindWeights, ...(rest.prior?.kindWeights ?? {}) },
        factWeights: { ...(rest.prior?.factWeights ?? {}) },
      },
    };
    if (o.buckets < 2 || o.embedDim < 1 || o.hidden < 1 || o.scorerHidden < 1)
      throw new RangeError(`bad policy options ${JSON.stringify(o)}`);
    return new TfjsPolicy(o, initialWeights(o, seededRandom(seed)));
  }

  /** A policy with the given options and weights (from exportWeights or a checkpoint). */
  static fromWeights(options: PolicyOptions, weights: TensorFrames): TfjsPolicy {
    const p = TfjsPolicy.create({ ...options, seed: 0 });
    p.importWeights(weights);
    return p;
  }

  get(name: string): tf.Variable {
    const v = this.variables.get(name);
    if (!v) throw new Error(`policy has no variable ${name}`);
    return v;
  }

  /** A batch's candidates and what the network reads of them. */
  encode(batch: readonly PolicyInput[]): EncodedBatch {
    return encodeBatch(batch, { buckets: this.options.buckets });
  }

  /** The dense weights by name, for the graph. */
  denseWeights(): Map<string, tf.Tensor> {
    return this.variables;
  }

  /** Logits of an encoded batch, [B·C] (padding at −1e9). */
  logits(batch: EncodedBatch): Float32Array {
    return this.forward(batch, false).logits;
  }

  /**
   * Logits [B·C] and, with `withValue`, the critic's estimate [B] of the episode's reward from each
   * observation (trained by `learner.algorithm: awr`; an untrained head answers ≈ 0).
   */
  forward(batch: EncodedBatch, withValue = true): { logits: Float32Array; values: Float32Array } {
    this.alive();
    const o = this.options;
    const pooled = poolInputs(batch, this.embedding, o);
    const fixed = batchTensors(batch, logPrior(batch, o.prior));
    try {
      return tf.tidy(() => {
        const { B, C, T } = batch;
        const out = forwardGraph(
          this.denseWeights(),
          o,
          batch,
          {
            candidate: tf.tensor2d(pooled.candidate, [B * C, pooled.candidate.length / (B * C)]),
            token: tf.tensor2d(pooled.token, [B * T, pooled.token.length / (B * T)]),
            observation: tf.tensor2d(pooled.observation, [B, pooled.observation.length / B]),
          },
          fixed,
          withValue,
        );
        return {
          logits: out.logits.dataSync() as Float32Array,
          values: withValue ? (out.value.dataSync() as Float32Array) : new Float32Array(B),
        };
      });
    } finally {
      disposeBatchTensors(fixed);
    }
  }

  /** Each input's candidates and the policy's probability of each (one forward pass). */
  distributions(batch: readonly PolicyInput[]): { candidates: Candidate[]; probabilities: number[] }[] {
    if (batch.length === 0) return [];
    const encoded = this.encode(batch);
    const flat = this.logits(encoded);
    return encoded.candidates.map((candidates, b) => {
      const l = Array.from(flat.subarray(b * encoded.C, b * encoded.C + candidates.length));
      const max = Math.max(...l);
      const e = l.map((x) => Math.exp(x - max));
      const total = e.reduce((a, x) => a + x, 0);
      return { candidates, probabilities: e.map((x) => x / total) };
    });
  }

  /**
   * One decision per input, from one forward pass over the batch. With `randomFor`, input b draws
   * from its own stream (a request's seed); without it all draw from `options.random`, in input
   * order, so a seeded one draws the same samples batched or not.
   */
  act(batch: PolicyInput[], options: ActOptions, randomFor?: (b: number) => () => number): PolicyDecision[] {
    if (batch.length === 0) return [];
    const observations = batch.map((input) => encodeObservation(input, { buckets: this.options.buckets }));
    return this.actOn(
      observations,
      observations.map((o, b) => redundantActions(o.candidates, batch[b]!)),
      options,
      randomFor,
    );
  }

  /**
   * act() on observations encoded elsewhere (an env worker's features.ts), each with the
   * candidates it must not choose while another is left.
   */
  actOn(
    observations: readonly EncodedObservation[],
    excluded: readonly ReadonlySet<number>[],
    options: ActOptions,
    randomFor?: (b: number) => () => number,
  ): PolicyDecision[] {
    if (observations.length === 0) return [];
    this.alive();
    // One forward pass per group of similar candidate counts, then decisions in input order (a
    // shared random stream draws the same batched or not).
    const logits: Float32Array[] = new Array(observations.length);
    const values = new Float32Array(observations.length);
    for (const group of sizeGroups(observations.map((o) => o.candidates.length))) {
      const encoded = padBatch(group.map((b) => observations[b]!));
      const out = this.forward(encoded);
      group.forEach((b, k) => {
        logits[b] = out.logits.subarray(k * encoded.C, k * encoded.C + observations[b]!.candidates.length);
        values[b] = out.values[k]!;
      });
    }
    return observations.map((o, b) => ({
      ...decide(
        o.candidates,
        logits[b]!,
        randomFor === undefined ? options : { ...options, random: randomFor(b) },
        excluded[b],
      ),
      value: values[b]!,
    }));
  }

  exportWeights(): TensorFrames {
    this.alive();
    const e = this.embedding;
    const specs: TensorFrames['specs'] = [
      { name: 'embedding', dtype: 'float32', shape: [this.options.buckets, this.options.embedDim] },
    ];
    const frames: Buffer[] = [Buffer.from(e.buffer, e.byteOffset, e.byteLength)];
    for (const [name, v] of this.variables) {
      const data = v.dataSync() as Float32Array;
      specs.push({ name, dtype: 'float32', shape: [...v.shape] });
      frames.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
    return { specs, frames };
  }

  importWeights(weights: TensorFrames): void {
    this.alive();
    // A checkpoint from before the critic existed has no value/* weights: they keep their init.
    const hasCritic = weights.specs.some((s) => s.name.startsWith('value/'));
    const expected = [...TfjsPolicy.shapes(this.options)]
      .filter(([name]) => hasCritic || !name.startsWith('value/'))
      .map(([name, shape]) => `${name} [${shape.join(',')}]`);
    const given = weights.specs.map((s) => `${s.name} [${s.shape.join(',')}]`);
    if (weights.frames.length !== weights.specs.length)
      throw new Error(`weights have ${weights.specs.length} specs but ${weights.frames.length} frames`);
    if (expected.join(' ') !== given.join(' ')) {
      // only what differs: the full lists run to dozens of tensors
      const missing = expected.filter((e) => !given.includes(e));
      const extra = given.filter((g) => !expected.includes(g));
      throw new Error(
        `weights do not fit this policy: it needs ${missing.join(', ') || 'them in another order'}` +
          `${extra.length > 0 ? `; the weights have ${extra.join(', ')}` : ''}`,
      );
    }
    const arrays = weights.specs.map((s, i) => {
      const frame = weights.frames[i]!;
      const n = s.shape.reduce((a, b) => a * b, 1);
      if (s.dtype !== 'float32' || frame.byteLength !== n * 4)
        throw new Error(
          `weight ${s.name}: ${frame.byteLength} bytes, expected ${n * 4} (float32 ${s.shape.join('×')})`,
        );
      // Copy: the frame may be unaligned for a Float32Array view (msgpack buffers).
      const data = new Float32Array(n);
      new Uint8Array(data.buffer).set(frame);
      return data;
    });
    weights.specs.forEach((s, i) => {
      if (s.name === 'embedding') this.embedding.set(arrays[i]!);
      else this.get(s.name).assign(tf.tensor(arrays[i]!, s.shape, 'float32'));
    });
  }

  /** Parameters in all variables. */
  parameterCount(): number {
    let n = this.embedding.length;
    for (const v of this.variables.values()) n += v.size;
    return n;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const v of this.variables.values()) v.dispose();
  }

  private alive(): void {
    if (this.disposed) throw new Error('the policy was disposed');
  }
}

/**
 * A batch's observations split into groups of similar candidate counts. A forward pass pads every
 * observation to its group's largest count, and pages range from a dozen candidates to hundreds:
 * padded to the batch's largest, a batch of 16 cost more per input than one at a time
 * (bench/results/inference.json). A group grows while its padded size stays within `slack` of
 * its real one.
 */
export function sizeGroups(sizes: readonly number[], slack = 1.25): number[][] {
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]! || a - b);
  const groups: number[][] = [];
  let current: number[] = [];
  let real = 0;
  for (const i of order) {
    const c = Math.max(1, sizes[i]!);
    // ascending: with i, every member is padded to c
    if (current.length > 0 && (current.length + 1) * c > slack * (real + c)) {
      groups.push(current);
      current = [];
      real = 0;
    }
    current.push(i);
    real += c;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

const NONE_EXCLUDED: ReadonlySet<number> = new Set();

/**
 * Softmax with temperature over one observation's logits, without the `excluded` candidates (while
 * any other is left); greedy takes the argmax of what is left, sampling draws from it.
 */
export function decide(
  candidates: Candidate[],
  logits: Float32Array,
  options: ActOptions,
  excluded: ReadonlySet<number> = NONE_EXCLUDED,
): PolicyDecision {
  const n = candidates.length;
  // A page that offers nothing to act on (only text, or a canvas) still gets an action: TTI's Wait,
  // which spends the step and lets the page change, rather than no reply at all.
  if (n === 0)
    return {
      reply: 'Thought: the page offers nothing to act on; I wait.\nAction: Wait',
      action: 'Wait',
      candidates: 0,
      logProb: 0,
    };
  const t = options.greedy ? 1 : Math.max(options.temperature, 1e-6);
  const skip = excluded.size > 0 && excluded.size < n ? excluded : NONE_EXCLUDED;
  let max = -Infinity;
  let arg = -1;
  for (let i = 0; i < n; i++) {
    if (skip.has(i)) continue;
    if (logits[i]! > max) {
      max = logits[i]!;
      arg = i;
    }
  }
  // Logits that are all NaN (diverged weights) still give an action: the first one left.
  if (arg < 0) {
    arg = 0;
    while (arg < n - 1 && skip.has(arg)) arg++;
  }
  const weights = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (skip.has(i)) continue;
    weights[i] = Math.exp((logits[i]! - max) / t);
    total += weights[i]!;
  }
  let chosen = arg;
  if (!options.greedy) {
    let r = options.random() * total;
    for (let i = 0; i < n; i++) {
      r -= weights[i]!;
      if (weights[i]! > 0) chosen = i;
      if (r < 0) break;
    }
  }
  const c = candidates[chosen]!;
  const p = weights[chosen]! / total;
  // The parser reads the text after the last "Action:", so the thought must not contain one.
  const thought = `I ${describeKind(c)} (p=${p.toFixed(3)} among ${n} candidate actions).`.replace(
    /Action:/g,
    'Action',
  );
  return {
    reply: `Thought: ${thought}\nAction: ${c.action}`,
    action: c.action,
    candidates: n,
    logProb: Math.log(p),
  };
}

function describeKind(c: Candidate): string {
  switch (c.kind) {
    case 'click':
      return `click ${JSON.stringify(c.text.slice(0, 60))}`;
    case 'type':
      return `type ${JSON.stringify(c.text.slice(0, 60))}`;
    case 'hover':
      return `hover over ${JSON.stringify(c.text.slice(0, 60))}`;
    case 'select':
      return `select ${JSON.stringify(c.text.slice(0, 60))}`;
    case 'answer':
      return 'answer';
    case 'back':
      return 'go back';
    case 'scroll':
      return 'scroll';
    case 'drag':
      return c.text ? `drag onto ${JSON.stringify(c.text.slice(0, 60))}` : 'drag';
    case 'point':
      return 'click at a point';
  }
}
