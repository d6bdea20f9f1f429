// The trainable policy: a small MLP that scores every candidate action of an observation from its
// dense features and hashed token embeddings (with elementwise task × candidate interactions),
// plus a fixed log-prior that gives each action kind equal mass at init; a softmax over one
// observation's candidates is the policy. One batched forward pass scores a whole batch.
import { buildCandidateSet, type Candidate } from './candidates.js';
import { BAG, DENSE_SIZE, featurize, type ObservationFeatures } from './features.js';
import { registerGradients, tf } from './tf.js';
import type { ActOptions, PolicyDecision, PolicyInput, TensorFrames } from './types.js';

export interface PolicyOptions {
  /** Hash buckets of the token embedding table. */
  buckets: number;
  /** Embedding width. */
  embedDim: number;
  /** Hidden layer widths of the scorer. */
  hidden: number[];
  /** Scale of the output layer's init: small, so the untrained policy is close to the kind prior. */
  outputInitScale: number;
}

export const DEFAULT_POLICY_OPTIONS: PolicyOptions = {
  buckets: 4096,
  embedDim: 16,
  hidden: [64, 32],
  outputInitScale: 0.1,
};

/** Width of the scorer's input: dense features plus six embedding blocks. */
export function inputWidth(o: PolicyOptions): number {
  return DENSE_SIZE + 6 * o.embedDim;
}

/** mulberry32: a small seeded PRNG for reproducible initialisation. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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

/** A batch packed into tensors for one forward pass. */
export interface PackedBatch {
  dense: tf.Tensor2D;
  candTok: tf.Tensor1D;
  candW: tf.Tensor3D;
  ctxTok: tf.Tensor1D;
  ctxW: tf.Tensor3D;
  intentTok: tf.Tensor1D;
  intentW: tf.Tensor3D;
  stateTok: tf.Tensor1D;
  stateW: tf.Tensor3D;
  /** observation index of each candidate */
  owner: tf.Tensor1D;
  prior: tf.Tensor1D;
  /** [B × maxCandidates] index into [logits…, padding], padding pointing at the extra slot */
  padIndex: tf.Tensor1D;
  sizes: number[];
  maxCandidates: number;
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

/** Packs featurized observations; the caller disposes the tensors (or runs inside tf.tidy). */
export function pack(features: ObservationFeatures[]): PackedBatch {
  const sizes = features.map((f) => f.candidates.length);
  const N = sizes.reduce((s, n) => s + n, 0);
  const B = features.length;
  const maxCandidates = Math.max(1, ...sizes);
  const owner = new Int32Array(N);
  const padIndex = new Int32Array(B * maxCandidates).fill(N);
  let o = 0;
  sizes.forEach((n, b) => {
    for (let j = 0; j < n; j++) {
      owner[o + j] = b;
      padIndex[b * maxCandidates + j] = o + j;
    }
    o += n;
  });
  return {
    dense: tf.tensor2d(concatF32(features.map((f) => f.dense)), [N, DENSE_SIZE]),
    candTok: tf.tensor1d(concatI32(features.map((f) => f.candTok)), 'int32'),
    candW: tf.tensor3d(concatF32(features.map((f) => f.candW)), [N, BAG.candidate, 1]),
    ctxTok: tf.tensor1d(concatI32(features.map((f) => f.ctxTok)), 'int32'),
    ctxW: tf.tensor3d(concatF32(features.map((f) => f.ctxW)), [N, BAG.context, 1]),
    intentTok: tf.tensor1d(concatI32(features.map((f) => f.intentTok)), 'int32'),
    intentW: tf.tensor3d(concatF32(features.map((f) => f.intentW)), [B, BAG.intent, 1]),
    stateTok: tf.tensor1d(concatI32(features.map((f) => f.stateTok)), 'int32'),
    stateW: tf.tensor3d(concatF32(features.map((f) => f.stateW)), [B, BAG.state, 1]),
    owner: tf.tensor1d(owner, 'int32'),
    prior: tf.tensor1d(concatF32(features.map((f) => f.prior))),
    padIndex: tf.tensor1d(padIndex, 'int32'),
    sizes,
    maxCandidates,
  };
}

export function disposePacked(p: PackedBatch): void {
  tf.dispose([
    p.dense,
    p.candTok,
    p.candW,
    p.ctxTok,
    p.ctxW,
    p.intentTok,
    p.intentW,
    p.stateTok,
    p.stateW,
    p.owner,
    p.prior,
    p.padIndex,
  ]);
}

export class TfjsPolicy {
  readonly options: PolicyOptions;
  /** Trainable variables by name, in a fixed order (the order of exportWeights). */
  readonly variables: Map<string, tf.Variable>;
  private disposed = false;

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
    shapes.set('embedding', [o.buckets, o.embedDim]);
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
    if (o.buckets < 1 || o.embedDim < 1 || o.hidden.some((h) => h < 1))
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

  /** Featurized observations for a batch (candidates included). */
  featurize(batch: readonly PolicyInput[]): ObservationFeatures[] {
    return batch.map((input) => featurize(input, buildCandidateSet(input), this.options.buckets));
  }

  /** Candidate logits (score + kind prior), [total candidates]; differentiable. */
  logits(p: PackedBatch): tf.Tensor1D {
    const E = this.get('embedding');
    const d = this.options.embedDim;
    const bag = (tok: tf.Tensor1D, w: tf.Tensor3D): tf.Tensor2D => {
      const [rows, slots] = [w.shape[0], w.shape[1]];
      const looked = tf.reshape(tf.gather(E, tok), [rows, slots, d]);
      return tf.sum(tf.mul(looked, w), 1) as tf.Tensor2D;
    };
    const eC = bag(p.candTok, p.candW);
    const eX = bag(p.ctxTok, p.ctxW);
    const eI = tf.gather(bag(p.intentTok, p.intentW), p.owner);
    const eS = tf.gather(bag(p.stateTok, p.stateW), p.owner);
    let h: tf.Tensor2D = tf.concat([p.dense, eC, tf.mul(eC, eI), tf.mul(eX, eI), tf.mul(eC, eS), eI, eS], 1);
    this.options.hidden.forEach((_, i) => {
      h = tf.relu(tf.add(tf.matMul(h, this.get(`dense${i}/kernel`)), this.get(`dense${i}/bias`)));
    });
    const score = tf.reshape(tf.add(tf.matMul(h, this.get('out/kernel')), this.get('out/bias')), [-1]);
    return tf.add(score, p.prior) as tf.Tensor1D;
  }

  /** Log-probabilities over each observation's candidates, [B × maxCandidates], padding ≈ -1e9. */
  logProbs(p: PackedBatch): tf.Tensor2D {
    const logits = this.logits(p);
    const padded = tf.gather(tf.concat([logits, tf.tensor1d([-1e9])], 0), p.padIndex);
    return tf.logSoftmax(tf.reshape(padded, [p.sizes.length, p.maxCandidates])) as tf.Tensor2D;
  }

  /** Scores a batch in one forward pass: the logits of each observation's candidates. */
  scoreBatch(batch: readonly PolicyInput[]): { features: ObservationFeatures[]; logits: Float32Array[] } {
    this.alive();
    const features = this.featurize(batch);
    const packed = pack(features);
    let flat: Float32Array;
    try {
      flat = tf.tidy(() => this.logits(packed)).dataSync() as Float32Array;
    } finally {
      disposePacked(packed);
    }
    const logits: Float32Array[] = [];
    let o = 0;
    for (const f of features) {
      logits.push(flat.slice(o, o + f.candidates.length));
      o += f.candidates.length;
    }
    return { features, logits };
  }

  /** One decision per input, from ONE batched forward pass. */
  act(batch: PolicyInput[], options: ActOptions): PolicyDecision[] {
    if (batch.length === 0) return [];
    const { features, logits } = this.scoreBatch(batch);
    return features.map((f, b) => decide(f.candidates, logits[b]!, options));
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

/** Softmax with temperature over one observation's logits; greedy takes the argmax. */
export function decide(candidates: Candidate[], logits: Float32Array, options: ActOptions): PolicyDecision {
  const n = candidates.length;
  const t = options.greedy ? 1 : Math.max(options.temperature, 1e-6);
  let max = -Infinity;
  let arg = 0;
  for (let i = 0; i < n; i++) {
    if (logits[i]! > max) {
      max = logits[i]!;
      arg = i;
    }
  }
  const weights = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    weights[i] = Math.exp((logits[i]! - max) / t);
    total += weights[i]!;
  }
  let chosen = arg;
  if (!options.greedy) {
    let r = options.random() * total;
    chosen = n - 1;
    for (let i = 0; i < n; i++) {
      r -= weights[i]!;
      if (r < 0) {
        chosen = i;
        break;
      }
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
    case 'answer':
      return 'answer';
    case 'back':
      return 'go back';
    case 'scroll':
      return 'scroll';
  }
}
