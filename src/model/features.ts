// What an env worker computes for the trainable policy before it asks for an action: the encoded
// observation (encode.ts) and the actions the policy must not repeat (trail.ts), as plain arrays
// that travel in the act request. Featurizing is per-page work that scales with the envs, and an
// env worker has the page at hand; done there, the inference worker (one per GPU) runs only the
// network (docs/model.md, "Speed"). Loads no TensorFlow.js, so env workers can import it.
import { type ActionKind, type Candidate, KINDS, SOURCES, type TextSource } from './candidates.js';
import { type EncodedObservation, encodeObservation } from './encode.js';
import {
  type Bags,
  CANDIDATE_BAGS,
  DEFAULT_BUCKETS,
  OBSERVATION_BAGS,
  OBSERVATION_SCALAR_SIZE,
  SCALAR_SIZE,
  TOKEN_FLAG_SIZE,
} from './layout.js';
import { redundantActions } from './trail.js';
import type { PolicyInput } from './types.js';

/** A bag as plain arrays. */
export interface WireBag {
  tok: number[];
  off: number[];
}

/** An encoded observation as it travels (msgpack carries plain arrays, not typed ones). */
export interface PolicyFeatures {
  /** the hash buckets it was encoded for: inference uses it only if its policy has as many */
  buckets: number;
  T: number;
  candidates: { kind: string; action: string; node: number; text: string; source: string }[];
  kind: number[];
  bags: Record<(typeof CANDIDATE_BAGS)[number], WireBag>;
  observationBags: Record<(typeof OBSERVATION_BAGS)[number], WireBag>;
  scalars: number[];
  matchSelf: number[];
  matchContext: number[];
  matchArgument: number[];
  matchLabel: number[];
  taskTok: number[];
  taskFlags: number[];
  observationScalars: number[];
  /** candidates the policy does not choose while another is left (a repeated search, …) */
  excluded: number[];
}

/** A column as plain numbers (msgpack, JSON) or as the typed array a frame holds. */
type Column = readonly number[] | Int32Array | Float32Array;

/** An encoded observation with any kind of column: what `encodedFrom` checks and takes. */
export type FeatureColumns = Omit<PolicyFeatures, 'bags' | 'observationBags' | ColumnKey> & {
  bags: Record<(typeof CANDIDATE_BAGS)[number], { tok: Column; off: Column }>;
  observationBags: Record<(typeof OBSERVATION_BAGS)[number], { tok: Column; off: Column }>;
} & Record<ColumnKey, Column>;
type ColumnKey =
  | 'kind'
  | 'scalars'
  | 'matchSelf'
  | 'matchContext'
  | 'matchArgument'
  | 'matchLabel'
  | 'taskTok'
  | 'taskFlags'
  | 'observationScalars';

const wireBag = (b: Bags): WireBag => ({ tok: Array.from(b.tok), off: Array.from(b.off) });

/** Encodes one input as an env worker sends it. */
export function featuresOf(input: PolicyInput, buckets = DEFAULT_BUCKETS): PolicyFeatures {
  const e = encodeObservation(input, { buckets });
  return {
    buckets,
    T: e.T,
    candidates: e.candidates.map((c) => ({
      kind: c.kind,
      action: c.action,
      node: c.node,
      text: c.text,
      source: c.source,
    })),
    kind: Array.from(e.kind),
    bags: Object.fromEntries(CANDIDATE_BAGS.map((k) => [k, wireBag(e.bags[k])])) as PolicyFeatures['bags'],
    observationBags: Object.fromEntries(
      OBSERVATION_BAGS.map((k) => [k, wireBag(e.observationBags[k])]),
    ) as PolicyFeatures['observationBags'],
    scalars: Array.from(e.scalars),
    matchSelf: Array.from(e.matchSelf),
    matchContext: Array.from(e.matchContext),
    matchArgument: Array.from(e.matchArgument),
    matchLabel: Array.from(e.matchLabel),
    taskTok: Array.from(e.taskTok),
    taskFlags: Array.from(e.taskFlags),
    observationScalars: Array.from(e.observationScalars),
    excluded: [...redundantActions(e.candidates, input)],
  };
}

export class FeaturesError extends Error {
  override name = 'FeaturesError';
}

/**
 * The encoded observation back from the wire, checked for what the network would index with: a
 * bag offset or token past its end, a kind that is not one, a length that does not match. A
 * sender with another encoder (another version, a bug) gets an error naming the field, not
 * logits read out of bounds.
 */
export function encodedFrom(
  f: FeatureColumns,
  buckets: number,
): { encoded: EncodedObservation; excluded: Set<number> } {
  const fail = (field: string, why: string): never => {
    throw new FeaturesError(`features.${field}: ${why}`);
  };
  if (f.buckets !== buckets) fail('buckets', `encoded for ${f.buckets} buckets, the policy has ${buckets}`);
  const n = f.candidates.length;
  const T = f.T;
  if (!Number.isInteger(T) || T < 0) fail('T', `${T} is not a token count`);
  if (f.taskTok.length !== T) fail('taskTok', `${f.taskTok.length} tokens for T = ${T}`);
  if (f.kind.length !== n) fail('kind', `${f.kind.length} kinds for ${n} candidates`);
  const candidates: Candidate[] = f.candidates.map((c, i) => {
    if (KINDS[f.kind[i]!] !== c.kind) fail(`kind[${i}]`, `${f.kind[i]} does not name ${c.kind}`);
    if (!(SOURCES as readonly string[]).includes(c.source))
      fail(`candidates[${i}].source`, `no source ${c.source}`);
    return { ...c, kind: c.kind as ActionKind, source: c.source as TextSource };
  });
  const sized = (field: string, values: Column, size: number): Float32Array => {
    if (values.length !== size) fail(field, `${values.length} values, expected ${size}`);
    return Float32Array.from(values);
  };
  const inBuckets = (field: string, values: Column): Int32Array => {
    for (const v of values) if (!(v >= 0 && v < buckets)) fail(field, `token ${v} outside 0…${buckets - 1}`);
    return Int32Array.from(values);
  };
  const bagOf = (field: string, b: { tok: Column; off: Column } | undefined, rows: number): Bags => {
    if (!b) return fail(field, 'missing');
    if (b.off.length !== rows + 1) fail(`${field}.off`, `${b.off.length} offsets for ${rows} rows`);
    for (let r = 0; r < rows; r++)
      if (!(b.off[r]! <= b.off[r + 1]!)) fail(`${field}.off`, `offsets decrease at row ${r}`);
    if (b.off[0] !== 0 || b.off[rows] !== b.tok.length)
      fail(`${field}.off`, 'offsets do not span the tokens');
    return { tok: inBuckets(`${field}.tok`, b.tok), off: Int32Array.from(b.off) };
  };
  const matches = (field: string, values: Column): Int32Array => {
    for (const v of values)
      if (!(Number.isInteger(v) && v >= 0 && v < n * T)) fail(field, `index ${v} outside 0…${n * T - 1}`);
    return Int32Array.from(values);
  };
  const encoded: EncodedObservation = {
    candidates,
    T,
    kind: Int32Array.from(f.kind),
    bags: Object.fromEntries(
      CANDIDATE_BAGS.map((k) => [k, bagOf(`bags.${k}`, f.bags[k], n)]),
    ) as EncodedObservation['bags'],
    observationBags: Object.fromEntries(
      OBSERVATION_BAGS.map((k) => [k, bagOf(`observationBags.${k}`, f.observationBags[k], 1)]),
    ) as EncodedObservation['observationBags'],
    scalars: sized('scalars', f.scalars, n * SCALAR_SIZE),
    matchSelf: matches('matchSelf', f.matchSelf),
    matchContext: matches('matchContext', f.matchContext),
    matchArgument: matches('matchArgument', f.matchArgument),
    matchLabel: matches('matchLabel', f.matchLabel),
    taskTok: inBuckets('taskTok', f.taskTok),
    taskFlags: sized('taskFlags', f.taskFlags, T * TOKEN_FLAG_SIZE),
    observationScalars: sized('observationScalars', f.observationScalars, OBSERVATION_SCALAR_SIZE),
  };
  const excluded = new Set<number>();
  for (const i of f.excluded) {
    if (!(Number.isInteger(i) && i >= 0 && i < n)) fail('excluded', `${i} is not a candidate`);
    excluded.add(i);
  }
  return { encoded, excluded };
}
