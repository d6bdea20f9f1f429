// What the policy reads, as arrays: every observation of a batch becomes token bags and a few
// exact-match facts per candidate action, the task as a token sequence, and the episode's trail
// as bags. Nothing here is learned and nothing names a suite: tokens are hashed words of the
// page, the task and the trail; the network (network.ts) learns what they mean.
//
// Candidates are padded to the batch's largest candidate count (C) and task tokens to T, so the
// network runs as a few batched matMuls with no gather (gathers cost µs per index on wasm).

import { BagBuilder, special } from './bag-builder.js';
import { buildCandidateSet, type Candidate, KINDS } from './candidates.js';
import {
  BAG_CAP,
  type Bags,
  CANDIDATE_BAGS,
  OBSERVATION_BAGS,
  OBSERVATION_SCALAR_SIZE,
  SCALAR_SIZE,
  TOKEN_FLAG_SIZE,
} from './layout.js';
import { memoContent, memoTokens } from './match-words.js';
import { edgeGlyph, nodeContext, ordinalPlace, rowFacts } from './node-context.js';
import { observationFacts } from './observation-facts.js';
import { affixOfTask, argumentAfterFieldWord, memoTask } from './task-text.js';
import { clean, SHAPES, shapeOf } from './text.js';
import { actionSignature } from './trail.js';
import { parseTrail, trailOf } from './trail-acts.js';
import type { NodeColumns, PolicyInput } from './types.js';

export interface EncodedBatch {
  B: number;
  /** Candidates per observation after padding. */
  C: number;
  /** Task tokens per observation after padding. */
  T: number;
  candidates: Candidate[][];
  /** Real candidate count of each observation. */
  sizes: number[];
  /** [B·C] 1 for a real candidate. */
  mask: Float32Array;
  /** [B·C] which action kind (KINDS index); -1 for padding. */
  kind: Int32Array;
  bags: Record<(typeof CANDIDATE_BAGS)[number], Bags>;
  observationBags: Record<(typeof OBSERVATION_BAGS)[number], Bags>;
  /** [B·C·SCALAR_SIZE] */
  scalars: Float32Array;
  /** [B·C·T] exact match between a candidate's bag and each task token. */
  matchSelf: Float32Array;
  matchContext: Float32Array;
  matchArgument: Float32Array;
  /** … between its label (a term, a column header, the text before it) and each task token */
  matchLabel: Float32Array;
  /** [B·T] hashed task tokens (0 for padding, with taskMask 0). */
  taskTok: Int32Array;
  taskMask: Float32Array;
  /** [B·T·TOKEN_FLAG_SIZE] */
  taskFlags: Float32Array;
  /** [B·OBSERVATION_SCALAR_SIZE] */
  observationScalars: Float32Array;
}

export interface EncodeOptions {
  buckets: number;
}

/** One observation encoded, unpadded: what a batch is assembled from (and what a trainer caches). */
export interface EncodedObservation {
  candidates: Candidate[];
  /** task tokens */
  T: number;
  kind: Int32Array;
  bags: Record<(typeof CANDIDATE_BAGS)[number], Bags>;
  observationBags: Record<(typeof OBSERVATION_BAGS)[number], Bags>;
  scalars: Float32Array;
  /** exact matches as flat indices c·T + j */
  matchSelf: Int32Array;
  matchContext: Int32Array;
  matchArgument: Int32Array;
  matchLabel: Int32Array;
  taskTok: Int32Array;
  taskFlags: Float32Array;
  observationScalars: Float32Array;
}

/** Encodes a batch: candidates of every input, padded to the largest count. */
export function encodeBatch(inputs: readonly PolicyInput[], options: EncodeOptions): EncodedBatch {
  return padBatch(inputs.map((input) => encodeObservation(input, options)));
}

function concatBags(parts: Bags[], rows: number[], padTo: number): Bags {
  const total = parts.reduce((s, p) => s + p.tok.length, 0);
  const tok = new Int32Array(total);
  const off = new Int32Array(parts.length * padTo + 1);
  let t = 0;
  let r = 0;
  parts.forEach((p, b) => {
    tok.set(p.tok, t);
    for (let k = 0; k < padTo; k++) {
      off[r + k] = t + (k < rows[b]! ? p.off[k]! : p.tok.length);
    }
    t += p.tok.length;
    r += padTo;
  });
  off[r] = t;
  return { tok, off };
}

/** Observations padded into one batch (C: the largest candidate count, T: the longest task). */
export function padBatch(observations: readonly EncodedObservation[]): EncodedBatch {
  const B = observations.length;
  const C = Math.max(1, ...observations.map((o) => o.candidates.length));
  const T = Math.max(1, ...observations.map((o) => o.T));
  const sizes = observations.map((o) => o.candidates.length);
  const out: EncodedBatch = {
    B,
    C,
    T,
    candidates: observations.map((o) => o.candidates),
    sizes,
    mask: new Float32Array(B * C),
    kind: new Int32Array(B * C).fill(-1),
    bags: Object.fromEntries(
      CANDIDATE_BAGS.map((k) => [
        k,
        concatBags(
          observations.map((o) => o.bags[k]),
          sizes,
          C,
        ),
      ]),
    ) as EncodedBatch['bags'],
    observationBags: Object.fromEntries(
      OBSERVATION_BAGS.map((k) => [
        k,
        concatBags(
          observations.map((o) => o.observationBags[k]),
          observations.map(() => 1),
          1,
        ),
      ]),
    ) as EncodedBatch['observationBags'],
    scalars: new Float32Array(B * C * SCALAR_SIZE),
    matchSelf: new Float32Array(B * C * T),
    matchContext: new Float32Array(B * C * T),
    matchArgument: new Float32Array(B * C * T),
    matchLabel: new Float32Array(B * C * T),
    taskTok: new Int32Array(B * T),
    taskMask: new Float32Array(B * T),
    taskFlags: new Float32Array(B * T * TOKEN_FLAG_SIZE),
    observationScalars: new Float32Array(B * OBSERVATION_SCALAR_SIZE),
  };
  observations.forEach((o, b) => {
    const n = o.candidates.length;
    out.mask.fill(1, b * C, b * C + n);
    out.kind.set(o.kind, b * C);
    out.scalars.set(o.scalars, b * C * SCALAR_SIZE);
    for (const [from, to] of [
      [o.matchSelf, out.matchSelf],
      [o.matchContext, out.matchContext],
      [o.matchArgument, out.matchArgument],
      [o.matchLabel, out.matchLabel],
    ] as const) {
      for (const flat of from) {
        const c = Math.floor(flat / o.T);
        to[(b * C + c) * T + (flat - c * o.T)] = 1;
      }
    }
    out.taskTok.set(o.taskTok, b * T);
    out.taskMask.fill(1, b * T, b * T + o.T);
    out.taskFlags.set(o.taskFlags, b * T * TOKEN_FLAG_SIZE);
    out.observationScalars.set(o.observationScalars, b * OBSERVATION_SCALAR_SIZE);
  });
  return out;
}

/** Encodes one observation: its candidates and everything the network reads of them. */ export function encodeObservation(
  input: PolicyInput,
  options: EncodeOptions,
): EncodedObservation {
  const set = buildCandidateSet(input);
  const candidates = set.candidates;
  const tree = set.tree;
  const n = candidates.length;
  const nodes = input.nodes;
  const task = memoTask.get(input.intent);
  const T = task.words.length;
  const trail = trailOf(input).map(parseTrail);
  const context = nodeContext(nodes, tree);
  const N = tree.n;
  const cand = Object.fromEntries(
    CANDIDATE_BAGS.map((k) => [k, new BagBuilder(options.buckets, BAG_CAP[k])]),
  ) as Record<(typeof CANDIDATE_BAGS)[number], BagBuilder>;
  const kind = new Int32Array(n);
  const scalars = new Float32Array(n * SCALAR_SIZE);
  const matches: [number[], number[], number[], number[]] = [[], [], [], []];

  const { taskTok, taskFlags, observationBags, observationScalars } = observationFacts(
    input,
    task,
    trail,
    N,
    options.buckets,
  );

  // what the trail did, by element signature and name
  const actedSignatures = new Set<string>();
  const actedHere = new Set<string>();
  const actedNames = new Set<string>();
  const typedTexts = new Set<string>();
  for (const t of trail) {
    if (t.role) {
      actedSignatures.add(t.signature);
      if (t.url === input.url) actedHere.add(t.signature);
      actedNames.add(t.name);
    }
    if (t.kind === 'type') typedTexts.add(t.text);
  }
  const kindCount = new Map<string, number>();
  for (const c of candidates) kindCount.set(c.kind, (kindCount.get(c.kind) ?? 0) + 1);

  const taskContentCount = task.content.size;
  // share of `words` in the task, and share of the task's content words in `words`
  const overlap = (words: readonly string[]): [number, number] => {
    if (words.length === 0 || taskContentCount === 0) return [0, 0];
    let inTask = 0;
    let distinct = 0;
    const seen = new Set<string>();
    for (const w of words) {
      if (!task.content.has(w)) continue;
      inTask += 1;
      if (!seen.has(w)) {
        seen.add(w);
        distinct += 1;
      }
    }
    return [inTask / words.length, distinct / taskContentCount];
  };
  const matchInto = (target: number[], c: number, words: readonly string[]) => {
    for (const w of words) {
      const at = task.positions.get(w);
      if (at) for (const j of at) target.push(c * T + j);
    }
  };
  const phrases = new Set(
    [...input.intent.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((m) => clean(m[1] ?? m[2] ?? '').toLowerCase()),
  );
  const { contextOf, insideOf } = rowFacts(nodes, tree, context, task, options.buckets);
  // "Halcyra Everyday Beanie" and "Halcyra Everyday Beanie Plus" are both inside the task; the
  // row that quotes most of it is the one the task names.
  let mostInside = 0;
  for (const c of candidates) if (c.node >= 0) mostInside = Math.max(mostInside, insideOf(c.node));
  const states = (nodes as NodeColumns & { states?: string[] }).states;
  const ys = (nodes as NodeColumns & { y?: number[] }).y;

  candidates.forEach((c, k) => {
    kind[k] = KINDS.indexOf(c.kind);
    const i = c.node;
    const role = i >= 0 ? (nodes.roles[i] ?? '') : '';
    const name = i >= 0 ? (nodes.names[i] ?? '') : '';
    const self = cand.self;
    self.add(special('kind', c.kind));
    if (c.kind === 'answer') {
      self.add(special('source', c.source));
      shapeOf(c.text).forEach((v, s) => {
        if (v) self.add(special('answer-shape', SHAPES[s]!));
      });
      self.words(c.text);
    } else if (c.kind === 'scroll') {
      self.add(special('scroll', c.action));
    } else if (i >= 0) {
      self.add(special('role', role));
      for (const s of states?.[i]?.split(' ') ?? []) if (s) self.add(special('state', s));
      const glyph = edgeGlyph(name);
      if (glyph) self.add(special('glyph', glyph));
      self.words(name);
    }
    self.end();
    const ctx = i >= 0 ? contextOf(i) : null;
    cand.context.append(ctx?.bag ?? null);
    const contextWords = ctx?.words ?? [];
    const l = i >= 0 ? context.label[i]! : -1;
    // a part of a text ("2" of "Rating: 3 out of 5 (2 reviews)") is labelled by the rest of it
    const labelText =
      c.kind === 'answer' && c.source === 'part' && i >= 0
        ? `${nodes.names[i] ?? ''}`.replace(c.text, ' ')
        : l >= 0
          ? (nodes.names[l] ?? '')
          : '';
    cand.label.words(labelText);
    cand.label.end();
    const argument = c.kind === 'type' || c.kind === 'answer' || c.kind === 'select' ? c.text : '';
    cand.argument.words(argument);
    cand.argument.end();
    const value = i >= 0 ? context.value[i]! : '';
    cand.value.words(value);
    cand.value.end();

    const selfWords = c.kind === 'answer' ? memoContent.get(c.text) : memoContent.get(name);
    const argWords = memoContent.get(argument);
    matchInto(matches[0], k, selfWords);
    matchInto(matches[1], k, contextWords);
    matchInto(matches[2], k, argWords);
    matchInto(matches[3], k, memoContent.get(labelText));

    const selfText = (c.kind === 'answer' ? c.text : name).toLowerCase().trim();
    const signature = i >= 0 && c.kind !== 'answer' ? actionSignature(c.action, nodes) : '';
    const sigHead =
      c.kind === 'type' || c.kind === 'select' ? signature.replace(/\s*\[[^\]]*\]\s*$/, '') : signature;
    const y = ys?.[i];
    const [selfIn, taskInSelf] = overlap(selfWords);
    const [ctxIn, taskInCtx] = overlap(contextWords);
    const [argIn, taskInArg] = overlap(argWords);
    const [labelIn] = overlap(memoContent.get(labelText));
    const inside = i >= 0 ? insideOf(i) : 0;
    scalars.set(
      [
        selfIn,
        taskInSelf,
        ctxIn,
        taskInCtx,
        argIn,
        taskInArg,
        labelIn,
        inside,
        selfText && phrases.has(selfText) ? 1 : 0,
        selfText.length > 2 && task.lower.includes(` ${memoTokens.get(selfText).join(' ')} `) ? 1 : 0,
        argument.length > 2 && task.lower.includes(` ${memoTokens.get(argument).join(' ')} `) ? 1 : 0,
        signature && actedSignatures.has(sigHead) ? 1 : 0,
        signature && actedHere.has(sigHead) ? 1 : 0,
        i >= 0 && c.kind !== 'answer' && actedNames.has(name) ? 1 : 0,
        c.kind === 'type' && typedTexts.has(c.text) ? 1 : 0,
        c.kind === 'type' && value && clean(value) === c.text ? 1 : 0,
        value ? 1 : 0,
        i >= 0 ? (nodes.inViewport[i] ?? 0) : 1,
        y === undefined ? 0 : Math.max(-1, Math.min(3, y / 720)),
        i >= 0 ? Math.min(1, (nodes.depths[i] ?? 0) / 16) : 0,
        i >= 0 ? Math.min(1, context.rank[i]! / 5) : 0,
        i >= 0 ? i / Math.max(1, N) : 0,
        Math.log1p(kindCount.get(c.kind) ?? 0) / 5,
        c.kind === 'type'
          ? argumentAfterFieldWord(
              task,
              argument,
              new Set(
                [...memoContent.get(name), ...memoContent.get(labelText)].filter(
                  (w) => !argWords.includes(w),
                ),
              ),
            )
          : 0,
        c.kind === 'answer' ? 0 : affixOfTask(task, name),
        i >= 0 && c.kind !== 'answer' && ordinalPlace(task, context, i) ? 1 : 0,
        i >= 0 ? (nodes.fresh?.[i] ?? 0) : 0,
        inside > 0 && inside >= mostInside ? 1 : 0,
      ],
      k * SCALAR_SIZE,
    );
  });
  return {
    candidates,
    T,
    kind,
    bags: Object.fromEntries(CANDIDATE_BAGS.map((k) => [k, cand[k].build()])) as EncodedObservation['bags'],
    observationBags,
    scalars,
    matchSelf: Int32Array.from(matches[0]),
    matchContext: Int32Array.from(matches[1]),
    matchArgument: Int32Array.from(matches[2]),
    matchLabel: Int32Array.from(matches[3]),
    taskTok,
    taskFlags,
    observationScalars,
  };
}

/**
 * Word dropout for training: each token of every bag is left out with probability `rate`, and
 * each task word becomes the unknown word (bucket 0). The exact-match facts stay, so the network
 * learns to lean on what carries over to tasks and pages it has not seen.
 */
export function dropTokens(batch: EncodedBatch, rate: number, random: () => number): EncodedBatch {
  if (rate <= 0) return batch;
  const drop = (bags: Bags): Bags => {
    const tok: number[] = [];
    const off = new Int32Array(bags.off.length);
    for (let r = 0; r + 1 < bags.off.length; r++) {
      off[r] = tok.length;
      for (let t = bags.off[r]!; t < bags.off[r + 1]!; t++) if (random() >= rate) tok.push(bags.tok[t]!);
    }
    off[bags.off.length - 1] = tok.length;
    return { tok: Int32Array.from(tok), off };
  };
  const taskTok = Int32Array.from(batch.taskTok, (t, r) =>
    batch.taskMask[r] !== 0 && random() < rate ? 0 : t,
  );
  return {
    ...batch,
    bags: Object.fromEntries(CANDIDATE_BAGS.map((k) => [k, drop(batch.bags[k])])) as EncodedBatch['bags'],
    observationBags: Object.fromEntries(
      OBSERVATION_BAGS.map((k) => [k, drop(batch.observationBags[k])]),
    ) as EncodedBatch['observationBags'],
    taskTok,
  };
}
