// The policy's prior: what an untrained policy does, and what its learned score adds to. It is
// log-linear over general facts of a candidate, never a suite's templates:
//
//   log p(c) ∝ log w(kind) − log n(kind) + Σ_f θ_f · fact_f(c)
//
// With θ = 0 and every w = 1 it is uniform per action kind (each kind present gets the same mass,
// spread evenly over its candidates). `fitPrior` learns w and θ by maximum likelihood from
// demonstrations: a handful of numbers (how often each kind is used, how much an exact match with
// the task's words counts), which is how an untrained policy can explore like a person reading
// the task without being told anything about a suite.
import { readFileSync } from 'node:fs';
import { type ActionKind, KINDS } from './candidates.js';
import type { EncodedBatch, EncodedObservation } from './encode.js';
import { SCALAR_SIZE, SCALARS } from './layout.js';

export type PriorFact = (typeof SCALARS)[number];

export interface Prior {
  /** mass per kind present, before normalising over the kinds present */
  kindWeights: Record<ActionKind, number>;
  /** θ per candidate fact (encode.ts SCALARS); absent = 0 */
  factWeights: Partial<Record<PriorFact, number>>;
}

export const UNIFORM_PRIOR: Prior = {
  kindWeights: Object.fromEntries(KINDS.map((k) => [k, 1])) as Record<ActionKind, number>,
  factWeights: {},
};

/** A prior file that cannot be used: the message names the file and the field. */
export class PriorFileError extends Error {
  override name = 'PriorFileError';
}

/**
 * A prior read from a JSON file ({ kindWeights, factWeights }, as `pretrain --prior-only` writes
 * it). Kinds and facts are the policy's own names (candidates.ts KINDS, encode.ts SCALARS); an
 * unknown name, a weight that is not a finite number, or a kind weight not above 0 is an error
 * naming the field. Absent kinds weigh 1 and absent facts 0, as in the uniform prior.
 */
export function readPriorFile(file: string): Prior {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PriorFileError(`${file}: not a JSON prior (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new PriorFileError(`${file}: a prior is an object with kindWeights and factWeights`);
  const { kindWeights = {}, factWeights = {}, ...rest } = parsed as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new PriorFileError(`${file}: unknown field ${extra}`);
  const weights = (field: string, value: unknown, names: readonly string[], positive: boolean) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new PriorFileError(`${file}: ${field} must be an object of weights`);
    for (const [name, w] of Object.entries(value)) {
      if (!names.includes(name))
        throw new PriorFileError(`${file}: ${field}.${name} is not one of ${names.join(', ')}`);
      if (typeof w !== 'number' || !Number.isFinite(w) || (positive && w <= 0))
        throw new PriorFileError(
          `${file}: ${field}.${name} must be a ${positive ? 'positive' : 'finite'} number`,
        );
    }
    return value as Record<string, number>;
  };
  return {
    kindWeights: { ...UNIFORM_PRIOR.kindWeights, ...weights('kindWeights', kindWeights, KINDS, true) },
    factWeights: weights('factWeights', factWeights, SCALARS, false),
  };
}

/** The log-prior of one observation's candidates (kinds by KINDS index, facts row-major). */
function logPriorOf(
  kind: ArrayLike<number>,
  scalars: ArrayLike<number>,
  n: number,
  prior: Prior,
  out: Float32Array,
  at: number,
): void {
  const theta = SCALARS.map((f) => prior.factWeights[f] ?? 0);
  const count = new Map<number, number>();
  for (let c = 0; c < n; c++) count.set(kind[c]!, (count.get(kind[c]!) ?? 0) + 1);
  let total = 0;
  for (const k of count.keys()) total += prior.kindWeights[KINDS[k]!] ?? 1;
  let max = -Infinity;
  for (let c = 0; c < n; c++) {
    const k = kind[c]!;
    let v = Math.log(Math.max((prior.kindWeights[KINDS[k]!] ?? 1) / total / count.get(k)!, 1e-12));
    for (let f = 0; f < SCALAR_SIZE; f++) if (theta[f] !== 0) v += theta[f]! * scalars[c * SCALAR_SIZE + f]!;
    out[at + c] = v;
    max = Math.max(max, v);
  }
  // normalise: facts move mass between candidates, they do not change the total
  let sum = 0;
  for (let c = 0; c < n; c++) sum += Math.exp(out[at + c]! - max);
  const lse = max + Math.log(sum);
  for (let c = 0; c < n; c++) out[at + c]! -= lse;
}

/** The log-prior of every candidate slot of a padded batch ([B·C]; padding 0). */
export function logPrior(batch: EncodedBatch, prior: Prior): Float32Array {
  const out = new Float32Array(batch.B * batch.C);
  for (let b = 0; b < batch.B; b++) {
    const n = batch.sizes[b]!;
    logPriorOf(
      batch.kind.subarray(b * batch.C, b * batch.C + n),
      batch.scalars.subarray(b * batch.C * SCALAR_SIZE, (b * batch.C + n) * SCALAR_SIZE),
      n,
      prior,
      out,
      b * batch.C,
    );
  }
  return out;
}

export interface FitReport {
  prior: Prior;
  /** mean log-likelihood of the demonstrated actions, uniform prior → fitted */
  before: number;
  after: number;
  steps: number;
}

/**
 * Fits the prior's kind weights and fact weights to demonstrated actions (maximum likelihood with
 * a small L2 pull to the uniform prior), by full-batch gradient ascent: a few dozen parameters.
 */
export function fitPrior(
  samples: { encoded: EncodedObservation; target: number }[],
  options: { iterations?: number; l2?: number; learningRate?: number } = {},
): FitReport {
  const K = KINDS.length;
  const F = SCALAR_SIZE;
  const params = new Float64Array(K + F); // log kind weights, then θ
  const m = new Float64Array(K + F);
  const v = new Float64Array(K + F);
  const l2 = options.l2 ?? 0.01;
  const lr = options.learningRate ?? 0.05;
  const toPrior = (): Prior => ({
    kindWeights: Object.fromEntries(KINDS.map((k, i) => [k, Math.exp(params[i]!)])) as Record<
      ActionKind,
      number
    >,
    factWeights: Object.fromEntries(SCALARS.map((f, i) => [f, params[K + i]!])) as Record<PriorFact, number>,
  });
  const evaluate = (grad: Float64Array | null): number => {
    const prior = toPrior();
    let ll = 0;
    grad?.fill(0);
    for (const { encoded, target } of samples) {
      const n = encoded.candidates.length;
      const lp = new Float32Array(n);
      logPriorOf(encoded.kind, encoded.scalars, n, prior, lp, 0);
      ll += lp[target]!;
      if (!grad) continue;
      // d log p(t) / dθ_f = x_tf − E_p[x_f]; for a kind's log-weight, [kind(t) = k] − p(kind k)
      // (the kinds' own normaliser cancels against the final one)
      for (let c = 0; c < n; c++) {
        const p = Math.exp(lp[c]!);
        for (let f = 0; f < F; f++) grad[K + f]! -= p * encoded.scalars[c * F + f]!;
        grad[encoded.kind[c]!]! -= p;
      }
      for (let f = 0; f < F; f++) grad[K + f]! += encoded.scalars[target * F + f]!;
      grad[encoded.kind[target]!]! += 1;
    }
    if (grad) for (let i = 0; i < K + F; i++) grad[i] = grad[i]! / samples.length - l2 * params[i]!;
    return ll / samples.length;
  };
  const before = evaluate(null);
  const grad = new Float64Array(K + F);
  const iterations = options.iterations ?? 300;
  for (let t = 1; t <= iterations; t++) {
    evaluate(grad);
    for (let i = 0; i < K + F; i++) {
      m[i] = 0.9 * m[i]! + 0.1 * grad[i]!;
      v[i] = 0.999 * v[i]! + 0.001 * grad[i]! * grad[i]!;
      params[i]! += (lr * (m[i]! / (1 - 0.9 ** t))) / (Math.sqrt(v[i]! / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  return { prior: toPrior(), before, after: evaluate(null), steps: samples.length };
}
