// The policy's network: token embeddings pooled into bags, a task encoder, cross-attention from
// every candidate action to the task's tokens (biased by exact word matches, so a product name,
// a forum or a quoted title is found by what it says, whatever the suite), and a scorer.
//
//   candidate c:  x_c = ReLU(W_c [self, context, label, argument, value bags; match facts; kind])
//   task token j: t_j = ReLU(W_t [e_{j-2} … e_{j+2}; token flags; position])
//   observation:  g   = ReLU(W_o [mean task embedding; URL, title, history, last-action bags; step])
//   attention:    a_cj = softmax_j( (W_q x_c)·(W_k t_j)/√h + β·match_cj ),  u_c = Σ_j a_cj W_v t_j
//   score:        s_c = w · ReLU(W_s [x_c, u_c, x_c⊙u_c, x_c⊙g, u_c⊙g]) + b
//
// The embedding table lives in JavaScript (pooling and its gradient are loops there: tfjs's
// gather costs µs per index on wasm); everything after pooling is a few batched matMuls.
import type { EncodedBatch } from './encode.js';
import {
  CANDIDATE_BAGS,
  DEFAULT_BUCKETS,
  KIND_SIZE,
  OBSERVATION_BAGS,
  OBSERVATION_SCALAR_SIZE,
  SCALAR_SIZE,
  TOKEN_FLAG_SIZE,
} from './layout.js';
import { tf } from './tf.js';

export interface NetworkOptions {
  /** Hash buckets of the token embedding table. */
  buckets: number;
  /** Embedding width. */
  embedDim: number;
  /** Width of candidate, task-token and observation encodings. */
  hidden: number;
  /** Width of the scorer's hidden layer. */
  scorerHidden: number;
  /** Scale of the output layer's init: small, so the untrained policy is its prior. */
  outputInitScale: number;
  /** Initial weight of an exact word match in the attention logits. */
  matchInit: number;
}

export const DEFAULT_NETWORK_OPTIONS: NetworkOptions = {
  buckets: DEFAULT_BUCKETS,
  embedDim: 32,
  hidden: 64,
  scorerHidden: 64,
  outputInitScale: 0.1,
  matchInit: 2,
};

export const TOKEN_POSITION_SIZE = 2;
/**
 * Task words each side that a task token reads. Two, because one is often a stop word: "starts
 * with "Ant"" and "ends with "ope"" differ only two words before the quoted text.
 */
export const TASK_WINDOW = 2;
const WINDOW_WORDS = 2 * TASK_WINDOW + 1;

export function candidateWidth(o: NetworkOptions): number {
  return CANDIDATE_BAGS.length * o.embedDim + SCALAR_SIZE + KIND_SIZE;
}
export function tokenWidth(o: NetworkOptions): number {
  return WINDOW_WORDS * o.embedDim + TOKEN_FLAG_SIZE + TOKEN_POSITION_SIZE;
}
export function observationWidth(o: NetworkOptions): number {
  return (1 + OBSERVATION_BAGS.length) * o.embedDim + OBSERVATION_SCALAR_SIZE;
}

/** The network's inputs after pooling, as flat arrays. */
export interface PooledInputs {
  candidate: Float32Array; // [B·C × candidateWidth]
  token: Float32Array; // [B·T × tokenWidth]
  observation: Float32Array; // [B × observationWidth]
}

/** Names and shapes of the dense weights (the embedding is "embedding", [buckets × embedDim]). */
export function weightShapes(o: NetworkOptions): [string, number[]][] {
  const h = o.hidden;
  return [
    ['candidate/w', [candidateWidth(o), h]],
    ['candidate/b', [h]],
    ['token/w', [tokenWidth(o), h]],
    ['token/b', [h]],
    ['observation/w', [observationWidth(o), h]],
    ['observation/b', [h]],
    ['attention/q', [h, h]],
    ['attention/k', [h, h]],
    ['attention/v', [h, h]],
    ['attention/match_self', [1]],
    ['attention/match_context', [1]],
    ['attention/match_argument', [1]],
    ['attention/match_label', [1]],
    ['scorer/w1', [5 * h, o.scorerHidden]],
    ['scorer/b1', [o.scorerHidden]],
    ['scorer/w2', [o.scorerHidden, 1]],
    ['scorer/b2', [1]],
    // the critic: the expected return of the observation, from g and the mean candidate
    ['value/w1', [2 * h, h]],
    ['value/b1', [h]],
    ['value/w2', [h, 1]],
    ['value/b2', [1]],
  ];
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

/** Initial values of every weight, seeded. */
export function initialWeights(o: NetworkOptions, random: () => number): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  out.set('embedding', normals(o.buckets * o.embedDim, 1 / Math.sqrt(o.embedDim), random));
  for (const [name, shape] of weightShapes(o)) {
    const n = shape.reduce((a, b) => a * b, 1);
    if (name.startsWith('attention/match')) out.set(name, new Float32Array(1).fill(o.matchInit));
    else if (shape.length === 1) out.set(name, new Float32Array(n));
    else {
      const small = name === 'scorer/w2' || name === 'value/w2';
      const scale = Math.sqrt(2 / shape[0]!) * (small ? o.outputInitScale : 1);
      out.set(name, normals(n, scale, random));
    }
  }
  return out;
}

// --- pooling, in JavaScript --------------------------------------------------------------------

function poolBag(
  E: Float32Array,
  d: number,
  tok: Int32Array,
  off: Int32Array,
  row: number,
  out: Float32Array,
  at: number,
): void {
  const from = off[row]!;
  const to = off[row + 1]!;
  if (to === from) return;
  const w = 1 / (to - from);
  for (let t = from; t < to; t++) {
    const e = tok[t]! * d;
    for (let k = 0; k < d; k++) out[at + k]! += w * E[e + k]!;
  }
}

function scatterBag(
  gE: Float32Array,
  d: number,
  tok: Int32Array,
  off: Int32Array,
  row: number,
  grad: Float32Array,
  at: number,
): void {
  const from = off[row]!;
  const to = off[row + 1]!;
  if (to === from) return;
  const w = 1 / (to - from);
  for (let t = from; t < to; t++) {
    const e = tok[t]! * d;
    for (let k = 0; k < d; k++) gE[e + k]! += w * grad[at + k]!;
  }
}

/** Pools the batch's bags with the embedding table: the dense inputs of the network. */
export function poolInputs(batch: EncodedBatch, E: Float32Array, o: NetworkOptions): PooledInputs {
  const d = o.embedDim;
  const { B, C, T } = batch;
  const wc = candidateWidth(o);
  const candidate = new Float32Array(B * C * wc);
  for (let r = 0; r < B * C; r++) {
    if (batch.mask[r] === 0) continue;
    const at = r * wc;
    CANDIDATE_BAGS.forEach((k, bag) => {
      const { tok, off } = batch.bags[k];
      poolBag(E, d, tok, off, r, candidate, at + bag * d);
    });
    const s = at + CANDIDATE_BAGS.length * d;
    candidate.set(batch.scalars.subarray(r * SCALAR_SIZE, (r + 1) * SCALAR_SIZE), s);
    candidate[s + SCALAR_SIZE + batch.kind[r]!] = 1;
  }
  const wt = tokenWidth(o);
  const token = new Float32Array(B * T * wt);
  const wo = observationWidth(o);
  const observation = new Float32Array(B * wo);
  for (let b = 0; b < B; b++) {
    let count = 0;
    for (let j = 0; j < T; j++) {
      const r = b * T + j;
      if (batch.taskMask[r] === 0) continue;
      count += 1;
      const at = r * wt;
      for (let s = -TASK_WINDOW; s <= TASK_WINDOW; s++) {
        const jj = j + s;
        if (jj < 0 || jj >= T || batch.taskMask[b * T + jj] === 0) continue;
        const e = batch.taskTok[b * T + jj]! * d;
        token.set(E.subarray(e, e + d), at + (s + TASK_WINDOW) * d);
      }
      const f = at + WINDOW_WORDS * d;
      token.set(batch.taskFlags.subarray(r * TOKEN_FLAG_SIZE, (r + 1) * TOKEN_FLAG_SIZE), f);
      token[f + TOKEN_FLAG_SIZE] = j / 32;
      token[f + TOKEN_FLAG_SIZE + 1] = j === 0 ? 1 : 0;
      // the task's mean embedding
      const e = batch.taskTok[r]! * d;
      for (let k = 0; k < d; k++) observation[b * wo + k]! += E[e + k]!;
    }
    if (count > 0) for (let k = 0; k < d; k++) observation[b * wo + k]! /= count;
    OBSERVATION_BAGS.forEach((k, bag) => {
      const { tok, off } = batch.observationBags[k];
      poolBag(E, d, tok, off, b, observation, b * wo + (1 + bag) * d);
    });
    observation.set(
      batch.observationScalars.subarray(b * OBSERVATION_SCALAR_SIZE, (b + 1) * OBSERVATION_SCALAR_SIZE),
      b * wo + (1 + OBSERVATION_BAGS.length) * d,
    );
  }
  return { candidate, token, observation };
}

/** Embedding rows a batch touched and their gradient (dense storage, sparse rows). */
export interface EmbeddingGradient {
  rows: number[];
  /** [buckets × embedDim], nonzero only in `rows` */
  gradient: Float32Array;
  squaredNorm: number;
}

// One gradient buffer per table size, reused: zeroing the touched rows is cheaper than allocating.
const gradientBuffers = new Map<number, { gradient: Float32Array; touched: Uint8Array }>();

/** The embedding table's gradient from the gradients of the pooled inputs. */
export function embeddingGradient(
  batch: EncodedBatch,
  grads: PooledInputs,
  o: NetworkOptions,
): EmbeddingGradient {
  const d = o.embedDim;
  const size = o.buckets * d;
  let buffer = gradientBuffers.get(size);
  if (!buffer) {
    buffer = { gradient: new Float32Array(size), touched: new Uint8Array(o.buckets) };
    gradientBuffers.set(size, buffer);
  }
  const { gradient: gE, touched } = buffer;
  const rows: number[] = [];
  const touch = (tok: Int32Array, from: number, to: number) => {
    for (let t = from; t < to; t++) {
      const r = tok[t]!;
      if (touched[r] === 0) {
        touched[r] = 1;
        rows.push(r);
        gE.fill(0, r * d, r * d + d);
      }
    }
  };
  const { B, C, T } = batch;
  for (const k of CANDIDATE_BAGS) touch(batch.bags[k].tok, 0, batch.bags[k].tok.length);
  for (const k of OBSERVATION_BAGS)
    touch(batch.observationBags[k].tok, 0, batch.observationBags[k].tok.length);
  touch(batch.taskTok, 0, batch.taskTok.length);
  const wc = candidateWidth(o);
  for (let r = 0; r < B * C; r++) {
    if (batch.mask[r] === 0) continue;
    CANDIDATE_BAGS.forEach((k, bag) => {
      const { tok, off } = batch.bags[k];
      scatterBag(gE, d, tok, off, r, grads.candidate, r * wc + bag * d);
    });
  }
  const wt = tokenWidth(o);
  const wo = observationWidth(o);
  for (let b = 0; b < B; b++) {
    let count = 0;
    for (let j = 0; j < T; j++) if (batch.taskMask[b * T + j] !== 0) count += 1;
    for (let j = 0; j < T; j++) {
      const r = b * T + j;
      if (batch.taskMask[r] === 0) continue;
      const e = batch.taskTok[r]! * d;
      // e_j feeds token rows j-2 … j+2 (as a word of their window) and the mean
      for (let s = -TASK_WINDOW; s <= TASK_WINDOW; s++) {
        const jj = j - s;
        if (jj < 0 || jj >= T || batch.taskMask[b * T + jj] === 0) continue;
        const at = (b * T + jj) * wt + (s + TASK_WINDOW) * d;
        for (let k = 0; k < d; k++) gE[e + k]! += grads.token[at + k]!;
      }
      for (let k = 0; k < d; k++) gE[e + k]! += grads.observation[b * wo + k]! / count;
    }
    OBSERVATION_BAGS.forEach((k, bag) => {
      const { tok, off } = batch.observationBags[k];
      scatterBag(gE, d, tok, off, b, grads.observation, b * wo + (1 + bag) * d);
    });
  }
  let squaredNorm = 0;
  for (const r of rows) {
    touched[r] = 0;
    for (let k = r * d; k < r * d + d; k++) squaredNorm += gE[k]! * gE[k]!;
  }
  return { rows, gradient: gE, squaredNorm };
}

// --- the graph ------------------------------------------------------------------------------

export type Weights = Map<string, tf.Tensor>;

/** The batch's fixed tensors (masks, match matrices, the prior). */
export interface BatchTensors {
  matchSelf: tf.Tensor3D;
  matchContext: tf.Tensor3D;
  matchArgument: tf.Tensor3D;
  matchLabel: tf.Tensor3D;
  /** [B × 1 × T]: 0 for a real token, −1e9 for padding */
  tokenBias: tf.Tensor3D;
  /** [B × C]: the log-prior for a real candidate, −1e9 for padding */
  prior: tf.Tensor2D;
  /** [B × C]: 1/n for each of an observation's n real candidates, 0 for padding */
  candidateMean: tf.Tensor2D;
}

export function batchTensors(batch: EncodedBatch, logPrior: Float32Array): BatchTensors {
  const { B, C, T } = batch;
  const tokenBias = new Float32Array(B * T);
  for (let r = 0; r < B * T; r++) tokenBias[r] = batch.taskMask[r] === 0 ? -1e9 : 0;
  const prior = new Float32Array(B * C);
  for (let r = 0; r < B * C; r++) prior[r] = batch.mask[r] === 0 ? -1e9 : logPrior[r]!;
  const mean = new Float32Array(B * C);
  for (let b = 0; b < B; b++) mean.fill(1 / Math.max(1, batch.sizes[b]!), b * C, b * C + batch.sizes[b]!);
  return {
    candidateMean: tf.tensor2d(mean, [B, C]),
    matchSelf: tf.tensor3d(batch.matchSelf, [B, C, T]),
    matchContext: tf.tensor3d(batch.matchContext, [B, C, T]),
    matchArgument: tf.tensor3d(batch.matchArgument, [B, C, T]),
    matchLabel: tf.tensor3d(batch.matchLabel, [B, C, T]),
    tokenBias: tf.tensor3d(tokenBias, [B, 1, T]),
    prior: tf.tensor2d(prior, [B, C]),
  };
}

export function disposeBatchTensors(t: BatchTensors): void {
  tf.dispose([
    t.matchSelf,
    t.matchContext,
    t.matchArgument,
    t.matchLabel,
    t.tokenBias,
    t.prior,
    t.candidateMean,
  ]);
}

const dense = (x: tf.Tensor2D, w: tf.Tensor, b: tf.Tensor): tf.Tensor2D =>
  tf.relu(tf.add(tf.matMul(x, w as tf.Tensor2D), b)) as tf.Tensor2D;

export interface Forward {
  /** [B × C]: score + log-prior; padding at −1e9 */
  logits: tf.Tensor2D;
  /** [B]: the critic's estimate of the episode's return from this observation */
  value: tf.Tensor1D;
}

/** The logits only (what acting and BC need). */
export function logitsGraph(
  W: Weights,
  o: NetworkOptions,
  dims: { B: number; C: number; T: number },
  inputs: { candidate: tf.Tensor2D; token: tf.Tensor2D; observation: tf.Tensor2D },
  fixed: BatchTensors,
): tf.Tensor2D {
  return forwardGraph(W, o, dims, inputs, fixed, false).logits;
}

/**
 * The logits and the value. Differentiable in the weights and in the three pooled inputs.
 */
export function forwardGraph(
  W: Weights,
  o: NetworkOptions,
  dims: { B: number; C: number; T: number },
  inputs: { candidate: tf.Tensor2D; token: tf.Tensor2D; observation: tf.Tensor2D },
  fixed: BatchTensors,
  withValue = true,
): Forward {
  const { B, C, T } = dims;
  const h = o.hidden;
  const w = (name: string) => {
    const t = W.get(name);
    if (!t) throw new Error(`no weight ${name}`);
    return t;
  };
  const x = dense(inputs.candidate, w('candidate/w'), w('candidate/b')); // [BC × h]
  const tok = dense(inputs.token, w('token/w'), w('token/b')); // [BT × h]
  const g = dense(inputs.observation, w('observation/w'), w('observation/b')); // [B × h]
  const q = tf.reshape(tf.matMul(x, w('attention/q') as tf.Tensor2D), [B, C, h]);
  const k = tf.reshape(tf.matMul(tok, w('attention/k') as tf.Tensor2D), [B, T, h]);
  const v = tf.reshape(tf.matMul(tok, w('attention/v') as tf.Tensor2D), [B, T, h]);
  const match = tf.add(
    tf.add(
      tf.mul(fixed.matchSelf, w('attention/match_self')),
      tf.mul(fixed.matchContext, w('attention/match_context')),
    ),
    tf.add(
      tf.mul(fixed.matchArgument, w('attention/match_argument')),
      tf.mul(fixed.matchLabel, w('attention/match_label')),
    ),
  );
  const raw = tf.mul(tf.matMul(q, tf.transpose(k, [0, 2, 1])), tf.scalar(1 / Math.sqrt(h)));
  const attention = tf.softmax(tf.add(tf.add(raw, match), fixed.tokenBias)); // [B × C × T]
  const u3 = tf.matMul(attention, v); // [B × C × h]
  const x3 = tf.reshape(x, [B, C, h]);
  const g3 = tf.reshape(g, [B, 1, h]);
  const z = tf.reshape(tf.concat([x3, u3, tf.mul(x3, u3), tf.mul(x3, g3), tf.mul(u3, g3)], 2), [
    B * C,
    5 * h,
  ]) as tf.Tensor2D;
  const hidden = dense(z, w('scorer/w1'), w('scorer/b1'));
  const score = tf.add(tf.matMul(hidden, w('scorer/w2') as tf.Tensor2D), w('scorer/b2'));
  const logits = tf.add(tf.reshape(score, [B, C]), fixed.prior) as tf.Tensor2D;
  if (!withValue) return { logits, value: tf.zeros([B]) as tf.Tensor1D };
  // the mean encoded candidate: a [B × 1 × C] row of 1/n over real candidates times x
  const meanRow = tf.reshape(fixed.candidateMean, [B, 1, C]);
  const xbar = tf.reshape(tf.matMul(meanRow, x3), [B, h]) as tf.Tensor2D;
  const v1 = dense(tf.concat([g, xbar], 1) as tf.Tensor2D, w('value/w1'), w('value/b1'));
  const value = tf.reshape(tf.add(tf.matMul(v1, w('value/w2') as tf.Tensor2D), w('value/b2')), [
    B,
  ]) as tf.Tensor1D;
  return { logits, value };
}
