// The inference forward pass: the same function as TfjsPolicy.logitsTensor (the trainer's
// differentiable graph), with as few backend calls as possible, because on wasm each tfjs op
// costs tens of µs however small it is. The scorer's whole input row [dense, eC, eC⊙eI, eX⊙eI,
// eC⊙eS, eI, eS] is assembled in JavaScript (the bags are pooled there anyway, and a float32
// product in JavaScript rounds exactly as the backend's does), uploaded as one tensor, and each
// layer is one fused matMul + bias + ReLU; the fixed prior is added in JavaScript (a float32 sum,
// like the backend's add). So a batch is 1 upload, 3 kernels and 1 download, whatever its size.
import { BAG, DENSE_SIZE, type FeatureBatch } from './features.js';
import { tf } from './tf.js';

/** The input rows' buffer, reused batch after batch (a batch of 16 is ≈2 MB). */
let scratch = new Float32Array(0);

/** What the forward pass needs of the policy's options. */
export interface ScorerShape {
  embedDim: number;
  hidden: number[];
}

/** out[at … at+d) += Σ_j w[row, j] · E[tok[row, j]] — the same order of float32 sums as pooling in policy.ts. */
function poolRow(
  E: Float32Array,
  d: number,
  tok: Int32Array,
  w: Float32Array,
  slots: number,
  row: number,
  out: Float32Array,
  at: number,
): void {
  for (let j = 0; j < slots; j++) {
    const weight = w[row * slots + j]!;
    if (weight === 0) continue;
    const e = tok[row * slots + j]! * d;
    for (let k = 0; k < d; k++) out[at + k]! += weight * E[e + k]!;
  }
}

/**
 * The logits (score + prior) of every row of a batch, [N]. `E` is the embedding table (null when
 * the policy has no embeddings); `weight` gives the dense layers' variables by name.
 */
export function scoreRows(
  batch: FeatureBatch,
  shape: ScorerShape,
  E: Float32Array | null,
  weight: (name: string) => tf.Tensor,
): Float32Array {
  const N = batch.total;
  if (N === 0) return new Float32Array(0);
  const F = DENSE_SIZE;
  const d = E ? shape.embedDim : 0;
  const W = F + 6 * d;
  if (scratch.length < N * W) scratch = new Float32Array(Math.ceil(N * W * 1.5));
  const x = scratch.subarray(0, N * W);
  if (E === null) x.set(batch.dense);
  else {
    const B = batch.sizes.length;
    const eI = new Float32Array(B * d);
    const eS = new Float32Array(B * d);
    for (let b = 0; b < B; b++) {
      poolRow(E, d, batch.intentTok, batch.intentW, BAG.intent, b, eI, b * d);
      poolRow(E, d, batch.stateTok, batch.stateW, BAG.state, b, eS, b * d);
    }
    const eX = new Float32Array(d);
    for (let r = 0; r < N; r++) {
      const base = r * W;
      x.set(batch.dense.subarray(r * F, r * F + F), base);
      const c = base + F;
      x.fill(0, c, c + d);
      poolRow(E, d, batch.candTok, batch.candW, BAG.candidate, r, x, c);
      eX.fill(0);
      poolRow(E, d, batch.ctxTok, batch.ctxW, BAG.context, r, eX, 0);
      const o = batch.owner[r]! * d;
      for (let k = 0; k < d; k++) {
        const ec = x[c + k]!;
        const ei = eI[o + k]!;
        const es = eS[o + k]!;
        x[c + d + k] = ec * ei;
        x[c + 2 * d + k] = eX[k]! * ei;
        x[c + 3 * d + k] = ec * es;
        x[c + 4 * d + k] = ei;
        x[c + 5 * d + k] = es;
      }
    }
  }
  const scores = tf.tidy(() => {
    let h: tf.Tensor = tf.tensor2d(x, [N, W]);
    shape.hidden.forEach((_, i) => {
      h = tf.fused.matMul({
        a: h,
        b: weight(`dense${i}/kernel`) as tf.Tensor2D,
        bias: weight(`dense${i}/bias`),
        activation: 'relu',
      });
    });
    return tf.fused.matMul({ a: h, b: weight('out/kernel') as tf.Tensor2D, bias: weight('out/bias') });
  });
  const values = scores.dataSync();
  scores.dispose();
  const logits = new Float32Array(N);
  for (let r = 0; r < N; r++) logits[r] = values[r]! + batch.prior[r]!;
  return logits;
}
