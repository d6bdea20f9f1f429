// The trainable policy: a small MLP that scores every candidate action of an observation from its
// dense features and hashed token embeddings (with elementwise task × candidate interactions),
// plus a fixed log-prior that gives each action kind equal mass at init; a softmax over one
// observation's candidates is the policy. One batched forward pass scores a whole batch.
import { SeededRandom } from '../util/index.js';
import { buildCandidateSet, type Candidate } from './candidates.js';
import { FeatureArena } from './feature-arena.js';
import {
  BAG,
  DENSE_SIZE,
  type FeatureBatch,
  featurizeBatch,
  type ObservationFeatures,
  observationFeatures,
} from './features.js';
import { scoreRows } from './forward.js';
import { registerGradients, tf } from './tf.js';
import { redundantActions } from './trail.js';
import type { ActOptions, PolicyDecision, PolicyInput, TensorFrames } from './types.js';

export interface PolicyOptions {
  /** Hash buckets of the token embedding table. */
  buckets: number;
  /** Embedding width; 0 scores from the dense features alone (an ablation). */
  embedDim: number;
  /** Hidden layer widths of the scorer. */
  hidden: number[];
  /** Scale of the output layer's init: small, so the untrained policy is close to the prior. */
  outputInitScale: number;
  /** Weight of the fixed exploration heuristic inside each kind's prior mass (0 = uniform). */
  priorWeight: number;
}

export const DEFAULT_POLICY_OPTIONS: PolicyOptions = {
  buckets: 4096,
  embedDim: 16,
  hidden: [64, 32],
  outputInitScale: 0.1,
  priorWeight: 3,
};

/** Width of the scorer's input: dense features plus six embedding blocks. */
export function inputWidth(o: PolicyOptions): number {
  return DENSE_SIZE + 6 * o.embedDim;
}

/** A seeded stream (mulberry32, the run's own) for reproducible initialisation. */
export function seededRandom(seed: number): () => number {
  return new SeededRandom(seed).next;
}

function normals(n: number, scale: number, random: () => number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const u = Math.max(random(), 1e-12);
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    out[i] = r * Math.cos(2 * Math.PI * v) * scale;
    if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * v) * scale;
  }
  return out;
}

/**
 * A batch packed for the differentiable forward pass (the trainer's). The token bags stay in
 * JavaScript: tfjs's wasm gather costs several µs per index (≈200 ms for a batch of 16
 * observations' 77k bag slots), so the bags are pooled in JavaScript from a copy of the embedding
 * table, enter the graph as [N × d] inputs, and their gradients are scattered back into the table
 * in JavaScript (see trainer.ts).
 */
export interface PackedBatch extends Omit<FeatureBatch, 'dense' | 'prior'> {
  /** [N × DENSE_SIZE] */
  dense: tf.Tensor2D;
  /** [N] the fixed log-prior */
  prior: tf.Tensor1D;
}

function concatF32(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
function concatI32(parts: Int32Array[]): Int32Array {
  const out = new Int32Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Observations featurized one at a time, joined into one batch (copies). */
export function joinFeatures(features: ObservationFeatures[]): FeatureBatch {
  const sizes = features.map((f) => f.candidates.length);
  const total = sizes.reduce((s, n) => s + n, 0);
  const owner = new Int32Array(total);
  const offsets: number[] = [];
  let o = 0;
  sizes.forEach((n, b) => {
    offsets.push(o);
    owner.fill(b, o, o + n);
    o += n;
  });
  return {
    candidates: features.map((f) => f.candidates),
    sizes,
    offsets,
    owner,
    total,
    dense: concatF32(features.map((f) => f.dense)),
    candTok: concatI32(features.map((f) => f.candTok)),
    candW: concatF32(features.map((f) => f.candW)),
    ctxTok: concatI32(features.map((f) => f.ctxTok)),
    ctxW: concatF32(features.map((f) => f.ctxW)),
    intentTok: concatI32(features.map((f) => f.intentTok)),
    intentW: concatF32(features.map((f) => f.intentW)),
    stateTok: concatI32(features.map((f) => f.stateTok)),
    stateW: concatF32(features.map((f) => f.stateW)),
    prior: concatF32(features.map((f) => f.prior)),
  };
}

/** Packs a batch (or observations featurized one at a time); the caller disposes it with disposePacked. */
export function pack(features: FeatureBatch | ObservationFeatures[]): PackedBatch {
  const batch = Array.isArray(features) ? joinFeatures(features) : features;
  const { dense, prior, ...rest } = batch;
  return {
    ...rest,
    dense: tf.tensor2d(dense, [batch.total, DENSE_SIZE]),
    prior: tf.tensor1d(prior),
  };
}

export function disposePacked(p: PackedBatch): void {
  tf.dispose([p.dense, p.prior]);
}

/** The four pooled bags, one row per candidate: candidate, context, task, page (URL + last action). */
export interface Bags {
  candidate: Float32Array;
  context: Float32Array;
  intent: Float32Array;
  state: Float32Array;
}

/** Weighted sums of embedding rows, in JavaScript. `rowOf` maps an output row to its bag row. */
function pool(
  E: Float32Array,
  d: number,
  tok: Int32Array,
  w: Float32Array,
  slots: number,
  rows: number,
  rowOf: (r: number) => number,
): Float32Array {
  const out = new Float32Array(rows * d);
  for (let r = 0; r < rows; r++) {
    const b = rowOf(r);
    const o = r * d;
    for (let j = 0; j < slots; j++) {
      const weight = w[b * slots + j]!;
      if (weight === 0) continue;
      const e = tok[b * slots + j]! * d;
      for (let k = 0; k < d; k++) out[o + k]! += weight * E[e + k]!;
    }
  }
  return out;
}

/** `pooled` ([B × d], one row per observation) repeated for each of its candidates: [N × d]. */
function expand(pooled: Float32Array, d: number, owner: Int32Array): Float32Array {
  const out = new Float32Array(owner.length * d);
  for (let r = 0; r < owner.length; r++) out.set(pooled.subarray(owner[r]! * d, owner[r]! * d + d), r * d);
  return out;
}

/** Gradient of pooled rows back into the table: gE[token] += weight · g[row]. */
function unpool(
  gE: Float32Array,
  d: number,
  tok: Int32Array,
  w: Float32Array,
  slots: number,
  g: Float32Array,
  bagRows: number,
  rowsOfBag: (b: number) => [number, number],
): void {
  const sum = new Float32Array(d);
  for (let b = 0; b < bagRows; b++) {
    const [from, to] = rowsOfBag(b);
    sum.fill(0);
    for (let r = from; r < to; r++) for (let k = 0; k < d; k++) sum[k]! += g[r * d + k]!;
    for (let j = 0; j < slots; j++) {
      const weight = w[b * slots + j]!;
      if (weight === 0) continue;
      const e = tok[b * slots + j]! * d;
      for (let k = 0; k < d; k++) gE[e + k]! += weight * sum[k]!;
    }
  }
}

export class TfjsPolicy {
  readonly options: PolicyOptions;
  /** Trainable variables by name, in a fixed order (the order of exportWeights). */
  readonly variables: Map<string, tf.Variable>;
  private disposed = false;
  private embeddingCopy: { id: object; data: Float32Array } | null = null;
  private readonly arena = new FeatureArena();

  private constructor(options: PolicyOptions, values: Map<string, { shape: number[]; data: Float32Array }>) {
    registerGradients();
    this.options = options;
    this.variables = new Map();
    for (const [name, { shape, data }] of values) {
      this.variables.set(name, tf.variable(tf.tensor(data, shape, 'float32'), true, undefined, 'float32'));
    }
  }

  /** The variables' names and shapes for these options. */
  static shapes(o: PolicyOptions): Map<string, number[]> {
    const shapes = new Map<string, number[]>();
    if (o.embedDim > 0) shapes.set('embedding', [o.buckets, o.embedDim]);
    let width = inputWidth(o);
    o.hidden.forEach((h, i) => {
      shapes.set(`dense${i}/kernel`, [width, h]);
      shapes.set(`dense${i}/bias`, [h]);
      width = h;
    });
    shapes.set('out/kernel', [width, 1]);
    shapes.set('out/bias', [1]);
    return shapes;
  }

  /** A freshly initialised policy (He-normal hidden layers, small output layer), seeded. */
  static create(options: Partial<PolicyOptions> & { seed?: number } = {}): TfjsPolicy {
    const { seed = 0, ...rest } = options;
    const o: PolicyOptions = {
      ...DEFAULT_POLICY_OPTIONS,
      ...rest,
      hidden: [...(rest.hidden ?? DEFAULT_POLICY_OPTIONS.hidden)],
    };
    if (o.buckets < 1 || o.embedDim < 0 || o.hidden.some((h) => h < 1))
      throw new RangeError(`bad policy options ${JSON.stringify(o)}`);
    const random = seededRandom(seed);
    const values = new Map<string, { shape: number[]; data: Float32Array }>();
    for (const [name, shape] of TfjsPolicy.shapes(o)) {
      const n = shape.reduce((a, b) => a * b, 1);
      let data: Float32Array;
      if (name.endsWith('/bias')) data = new Float32Array(n);
      else if (name === 'embedding') data = normals(n, 0.3, random);
      else if (name === 'out/kernel') data = normals(n, o.outputInitScale * Math.sqrt(1 / shape[0]!), random);
      else data = normals(n, Math.sqrt(2 / shape[0]!), random);
      values.set(name, { shape, data });
    }
    return new TfjsPolicy(o, values);
  }

  /** A policy with the given options and weights (from exportWeights or a checkpoint). */
  static fromWeights(options: PolicyOptions, weights: TensorFrames): TfjsPolicy {
    const p = TfjsPolicy.create({ ...options, seed: 0 });
    p.importWeights(weights);
    return p;
  }

  private get(name: string): tf.Variable {
    const v = this.variables.get(name);
    if (!v) throw new Error(`policy has no variable ${name}`);
    return v;
  }

  /**
   * A batch's candidates and features, in one set of arrays. With `reuse`, in this policy's
   * arena: valid only until the next reusing call (act and the trainer's updates, which drop the
   * features before the next batch).
   */
  featurizeBatch(batch: readonly PolicyInput[], reuse = false): FeatureBatch {
    return featurizeBatch(
      batch,
      batch.map((input) => buildCandidateSet(input)),
      this.options.buckets,
      this.options.priorWeight,
      reuse ? this.arena : undefined,
    );
  }

  /** Featurized observations for a batch (candidates included), as views into one FeatureBatch. */
  featurize(batch: readonly PolicyInput[]): ObservationFeatures[] {
    const features = this.featurizeBatch(batch);
    return batch.map((_, b) => observationFeatures(features, b));
  }

  featurizeOne(input: PolicyInput): ObservationFeatures {
    return observationFeatures(this.featurizeBatch([input]), 0);
  }

  /**
   * The embedding table as a JavaScript array, copied out of the backend once per version of the
   * weights (importWeights and the trainer's updates give the variable new data, so a new dataId).
   */
  embeddingTable(): Float32Array {
    const v = this.get('embedding');
    if (this.embeddingCopy?.id !== v.dataId) {
      this.embeddingCopy = { id: v.dataId, data: v.dataSync() as Float32Array };
    }
    return this.embeddingCopy.data;
  }

  /** The bags of a packed batch pooled from the current embedding table (null without embeddings). */
  bags(p: PackedBatch): Bags | null {
    const d = this.options.embedDim;
    if (d === 0) return null;
    const E = this.embeddingTable();
    const self = (r: number) => r;
    const B = p.sizes.length;
    // The task and page bags are the same for all of an observation's candidates: pooled once each.
    return {
      candidate: pool(E, d, p.candTok, p.candW, BAG.candidate, p.total, self),
      context: pool(E, d, p.ctxTok, p.ctxW, BAG.context, p.total, self),
      intent: expand(pool(E, d, p.intentTok, p.intentW, BAG.intent, B, self), d, p.owner),
      state: expand(pool(E, d, p.stateTok, p.stateW, BAG.state, B, self), d, p.owner),
    };
  }

  /** The embedding table's gradient from the gradients of the pooled bags. */
  bagGradient(p: PackedBatch, g: Bags): Float32Array {
    const d = this.options.embedDim;
    const gE = new Float32Array(this.options.buckets * d);
    const one = (b: number): [number, number] => [b, b + 1];
    const obs = (b: number): [number, number] => [p.offsets[b]!, p.offsets[b]! + p.sizes[b]!];
    unpool(gE, d, p.candTok, p.candW, BAG.candidate, g.candidate, p.total, one);
    unpool(gE, d, p.ctxTok, p.ctxW, BAG.context, g.context, p.total, one);
    unpool(gE, d, p.intentTok, p.intentW, BAG.intent, g.intent, p.sizes.length, obs);
    unpool(gE, d, p.stateTok, p.stateW, BAG.state, g.state, p.sizes.length, obs);
    return gE;
  }

  /** Candidate logits (score + kind prior), [N], from the pooled bags as [N × d] tensors; differentiable. */
  logitsFrom(p: PackedBatch, bags: Record<keyof Bags, tf.Tensor2D> | null): tf.Tensor1D {
    let h: tf.Tensor2D = p.dense;
    if (bags) {
      const { candidate: eC, context: eX, intent: eI, state: eS } = bags;
      // Elementwise products let a linear layer see task × candidate (and page × candidate) pairs.
      h = tf.concat([p.dense, eC, tf.mul(eC, eI), tf.mul(eX, eI), tf.mul(eC, eS), eI, eS], 1);
    }
    this.options.hidden.forEach((_, i) => {
      h = tf.relu(tf.add(tf.matMul(h, this.get(`dense${i}/kernel`)), this.get(`dense${i}/bias`)));
    });
    const score = tf.reshape(tf.add(tf.matMul(h, this.get('out/kernel')), this.get('out/bias')), [-1]);
    return tf.add(score, p.prior) as tf.Tensor1D;
  }

  /** Candidate logits for a packed batch as a tensor, through the differentiable graph. */
  logitsTensor(p: PackedBatch): tf.Tensor1D {
    const bags = this.bags(p);
    const d = this.options.embedDim;
    return tf.tidy(() => {
      const t = bags
        ? {
            candidate: tf.tensor2d(bags.candidate, [p.total, d]),
            context: tf.tensor2d(bags.context, [p.total, d]),
            intent: tf.tensor2d(bags.intent, [p.total, d]),
            state: tf.tensor2d(bags.state, [p.total, d]),
          }
        : null;
      return this.logitsFrom(p, t);
    });
  }

  /**
   * Candidate logits (score + prior) of a featurized batch, [N]: one forward pass, the same
   * function as logitsTensor (the same values, computed with fewer backend calls; see forward.ts).
   */
  logits(batch: FeatureBatch): Float32Array {
    this.alive();
    const weight = (name: string) => this.get(name);
    return scoreRows(batch, this.options, this.options.embedDim > 0 ? this.embeddingTable() : null, weight);
  }

  /** Scores a batch in one forward pass: the logits of each observation's candidates. */
  scoreBatch(batch: readonly PolicyInput[]): { features: ObservationFeatures[]; logits: Float32Array[] } {
    this.alive();
    const features = this.featurizeBatch(batch);
    const flat = this.logits(features);
    return {
      features: batch.map((_, b) => observationFeatures(features, b)),
      logits: batch.map((_, b) =>
        flat.slice(features.offsets[b]!, features.offsets[b]! + features.sizes[b]!),
      ),
    };
  }

  /** One decision per input, from ONE batched forward pass. */
  /**
   * One decision per input. `randomFor` gives input b its own random source (a request's seed);
   * without it all draw from `options.random`, in input order, so a seeded one draws the same
   * samples batched or not.
   */
  act(batch: PolicyInput[], options: ActOptions, randomFor?: (b: number) => () => number): PolicyDecision[] {
    if (batch.length === 0) return [];
    this.alive();
    const features = this.featurizeBatch(batch, true);
    const flat = this.logits(features);
    return features.candidates.map((candidates, b) =>
      decide(
        candidates,
        flat.subarray(features.offsets[b]!, features.offsets[b]! + features.sizes[b]!),
        randomFor === undefined ? options : { ...options, random: randomFor(b) },
        redundantActions(candidates, batch[b]!),
      ),
    );
  }

  exportWeights(): TensorFrames {
    this.alive();
    const specs: TensorFrames['specs'] = [];
    const frames: Buffer[] = [];
    for (const [name, v] of this.variables) {
      const data = v.dataSync() as Float32Array;
      specs.push({ name, dtype: 'float32', shape: [...v.shape] });
      frames.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
    return { specs, frames };
  }

  importWeights(weights: TensorFrames): void {
    this.alive();
    const expected = [...this.variables].map(([name, v]) => `${name} [${v.shape.join(',')}]`);
    const given = weights.specs.map((s) => `${s.name} [${s.shape.join(',')}]`);
    if (weights.frames.length !== weights.specs.length)
      throw new Error(`weights have ${weights.specs.length} specs but ${weights.frames.length} frames`);
    if (expected.join(' ') !== given.join(' '))
      throw new Error(
        `weights do not fit this policy: expected ${expected.join(', ')}; got ${given.join(', ')} ` +
          `(policy options ${JSON.stringify(this.options)})`,
      );
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
      this.get(s.name).assign(tf.tensor(arrays[i]!, s.shape, 'float32'));
    });
  }

  /** Parameters in all variables. */
  parameterCount(): number {
    let n = 0;
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

const NONE_EXCLUDED: ReadonlySet<number> = new Set();

/**
 * Softmax with temperature over one observation's logits, without the `excluded` candidates (while
 * any other is left); greedy takes the argmax of what is left, sampling draws from it (from its
 * nucleus with `topP` < 1).
 */
export function decide(
  candidates: Candidate[],
  logits: Float32Array,
  options: ActOptions,
  excluded: ReadonlySet<number> = NONE_EXCLUDED,
): PolicyDecision {
  const n = candidates.length;
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
    const topP = options.topP ?? 1;
    if (topP < 1) total = keepNucleus(weights, total, topP);
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

/**
 * Zeroes every weight outside the nucleus: the fewest largest weights whose sum first reaches
 * `topP` of `total` (the one that crosses it is kept, as vLLM keeps the token that does; equal
 * weights go in candidate order). Returns the nucleus's total.
 */
function keepNucleus(weights: Float64Array, total: number, topP: number): number {
  const order = Array.from(weights.keys())
    .filter((i) => weights[i]! > 0)
    .sort((a, b) => weights[b]! - weights[a]! || a - b);
  let kept = 0;
  let k = 0;
  while (k < order.length && kept < topP * total) kept += weights[order[k++]!]!;
  for (let j = k; j < order.length; j++) weights[order[j]!] = 0;
  return kept;
}

function describeKind(c: Candidate): string {
  switch (c.kind) {
    case 'click':
      return `click ${JSON.stringify(c.text.slice(0, 60))}`;
    case 'type':
      return `type ${JSON.stringify(c.text.slice(0, 60))}`;
    case 'hover':
      return `hover over ${JSON.stringify(c.text.slice(0, 60))}`;
    case 'answer':
      return 'answer';
    case 'back':
      return 'go back';
    case 'scroll':
      return 'scroll';
  }
}
