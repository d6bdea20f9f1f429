// Per-candidate features: a dense vector of hand-made features that carry across templates (word
// overlap between the task and the candidate or its row, role, kind, repetition, step budget,
// answer shape crossed with the question's kind), and hashed token bags the model embeds (the
// candidate's words, its row's words, the task's words, the URL and the last action) so it can
// also learn template-specific associations. A whole batch is featurized in one pass into one set
// of typed arrays (what one forward pass or one training step consumes).
import {
  type ActionKind,
  type Candidate,
  type CandidateSet,
  KINDS,
  SOURCES,
  type Tree,
} from './candidates.js';
import type { FeatureArena } from './feature-arena.js';
import { Memo } from './memo.js';
import { clean, contentTokens, fnv1a, QUESTIONS, questionOf, SHAPES, tokens } from './text.js';
import { type NameInfo, nameInfo, type TextInfo, textInfo } from './text-memo.js';
import { textsTyped } from './trail.js';
import type { PolicyInput } from './types.js';

/** Share of each kind's prior mass spread uniformly over its candidates (the rest follows the heuristic). */
export const UNIFORM_SHARE = 0.25;

/**
 * Relative prior mass of each action kind (the softmax normalises over the kinds present): going
 * back, scrolling and hovering rarely help on their own, so they get less than click, type and
 * answer, which every task needs.
 */
export const KIND_WEIGHT: Record<ActionKind, number> = {
  click: 1,
  type: 1,
  answer: 1,
  hover: 0.3,
  back: 0.3,
  scroll: 0.6,
};

/** Token slots per bag; longer bags are cut, shorter ones padded with weight 0. */
export const BAG = { candidate: 12, context: 16, intent: 24, state: 16 } as const;

const ROLE_BUCKETS: readonly (readonly string[])[] = [
  ['link'],
  ['button'],
  ['radio', 'checkbox', 'switch'],
  ['textbox', 'searchbox'],
  ['combobox', 'spinbutton', 'option'],
  ['StaticText'],
  ['cell', 'gridcell'],
  ['heading'],
  ['columnheader', 'rowheader'],
  ['article', 'listitem'],
  ['menuitem', 'tab', 'menu', 'menubar'],
];
const ROLE_INDEX = new Map<string, number>();
ROLE_BUCKETS.forEach((roles, i) => {
  for (const r of roles) ROLE_INDEX.set(r, i);
});
const ROLE_OTHER = ROLE_BUCKETS.length;
const ROLE_NONE = ROLE_BUCKETS.length + 1;
const N_ROLES = ROLE_BUCKETS.length + 2;

const N_SHAPES = SHAPES.length;
const N_QUESTIONS = QUESTIONS.length;

/** Length of the dense feature vector. */
export const DENSE_SIZE =
  KINDS.length + // kind
  1 + // scroll up
  SOURCES.length + // text source
  N_ROLES + // role bucket
  6 + // text overlap with the task
  2 + // phrase match
  3 + // row overlap with the task
  8 + // typing
  3 + // repetition
  (KINDS.length + 1) + // last action's kind
  4 + // step budget
  2 + // note
  3 + // position
  1 + // candidates of this kind
  N_SHAPES +
  N_QUESTIONS +
  N_SHAPES * N_QUESTIONS +
  1; // answer length

/** One observation's features (views into a FeatureBatch of one or more observations). */
export interface ObservationFeatures {
  candidates: Candidate[];
  /** [candidates × DENSE_SIZE] */
  dense: Float32Array;
  /** [candidates × BAG.candidate] token buckets and their weights (mean pooling; 0 = padding) */
  candTok: Int32Array;
  candW: Float32Array;
  /** [candidates × BAG.context] */
  ctxTok: Int32Array;
  ctxW: Float32Array;
  /** [BAG.intent] */
  intentTok: Int32Array;
  intentW: Float32Array;
  /** [BAG.state] */
  stateTok: Int32Array;
  stateW: Float32Array;
  /** [candidates] the fixed log-prior (kind share × the exploration heuristic) */
  prior: Float32Array;
}

/**
 * A batch's features in one set of typed arrays: the candidates of all observations as
 * consecutive rows (observation b owns rows offsets[b] … offsets[b] + sizes[b]), the task and page
 * bags one row per observation. What one forward pass (or one training step) consumes.
 */
export interface FeatureBatch {
  /** Each observation's candidates. */
  candidates: Candidate[][];
  /** Candidates per observation. */
  sizes: number[];
  /** First row of each observation. */
  offsets: number[];
  /** Observation of each row. */
  owner: Int32Array;
  /** Rows (candidates) in all. */
  total: number;
  /** [total × DENSE_SIZE] */
  dense: Float32Array;
  /** [total × BAG.candidate] */
  candTok: Int32Array;
  candW: Float32Array;
  /** [total × BAG.context] */
  ctxTok: Int32Array;
  ctxW: Float32Array;
  /** [observations × BAG.intent] */
  intentTok: Int32Array;
  intentW: Float32Array;
  /** [observations × BAG.state] */
  stateTok: Int32Array;
  stateW: Float32Array;
  /** [total] */
  prior: Float32Array;
}

function kindOfAction(action: string): ActionKind | null {
  if (action.startsWith('Click')) return 'click';
  if (action.startsWith('Type')) return 'type';
  if (action.startsWith('Hover')) return 'hover';
  if (action.startsWith('ANSWER')) return 'answer';
  if (action.startsWith('GoBack')) return 'back';
  if (action.startsWith('Scroll')) return 'scroll';
  return null;
}

function elementOfAction(action: string): string | null {
  const m = /^(?:Click|Type|Hover)\s*\[(\d+)\]/.exec(action);
  return m ? m[1]! : null;
}

/**
 * Writes a bag: the first `slots` of `prefix` then `rest` (token hashes), as buckets with weight
 * 1/k for the k tokens kept (mean pooling).
 */
function fillBag(
  prefix: readonly number[],
  rest: ArrayLike<number>,
  restLength: number,
  buckets: number,
  tok: Int32Array,
  w: Float32Array,
  offset: number,
  slots: number,
): void {
  const k = Math.min(prefix.length + restLength, slots);
  const weight = 1 / k;
  for (let j = 0; j < k; j++) {
    tok[offset + j] = (j < prefix.length ? prefix[j]! : rest[j - prefix.length]!) % buckets;
    w[offset + j] = weight;
  }
}

/** How many of `unique` (no repeats) the task mentions. */
function hitsIn(unique: readonly string[], intent: ReadonlySet<string>): number {
  let count = 0;
  for (const t of unique) if (intent.has(t)) count += 1;
  return count;
}

/** What features need from the task, worked out once per task text (an episode repeats it). */
interface IntentInfo {
  lower: string;
  set: ReadonlySet<string>;
  question: readonly number[];
  quoted: ReadonlySet<string>;
  /** The task bag's token hashes: question tokens, then the task's content words. */
  bag: Uint32Array;
}

const intentInfos = new Memo<IntentInfo>(1024, (intent) => {
  const content = contentTokens(intent);
  const question = questionOf(intent);
  const qTokens = QUESTIONS.filter((_, i) => question[i] === 1).map((q) => `q:${q}`);
  return {
    lower: intent.toLowerCase(),
    set: new Set(content),
    question,
    quoted: new Set([...intent.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((m) => clean(m[1] ?? m[2] ?? ''))),
    bag: Uint32Array.from([...qTokens, ...content], fnv1a),
  };
});

/** The page bag's token hashes: the last action's kind, then the URL's path and query words. */
const stateBags = new Memo<Uint32Array>(4096, (key) => {
  const at = key.indexOf(' ');
  const url = key.slice(at + 1);
  let urlPath = url;
  try {
    const u = new URL(url);
    urlPath = `${u.pathname} ${u.search}`;
  } catch {
    // not a URL: use the text as it is
  }
  const bag = [
    `last:${key.slice(0, at)}`,
    ...tokens(urlPath)
      .filter((t) => !/^\d+$/.test(t))
      .map((t) => `u:${t}`),
  ];
  return Uint32Array.from(bag, fnv1a);
});

const KIND_TOKEN = KINDS.map((k) => fnv1a(`k:${k}`));
const ROLE_TOKEN = new Map<string, number>();
const roleToken = (role: string): number => {
  let h = ROLE_TOKEN.get(role);
  if (h === undefined) {
    h = fnv1a(`r:${role}`);
    if (ROLE_TOKEN.size < 4096) ROLE_TOKEN.set(role, h);
  }
  return h;
};
const SOURCE_TOKEN = SOURCES.map((s) => fnv1a(`s:${s}`));
const NO_SHAPE: readonly number[] = new Array<number>(N_SHAPES).fill(0);
const NUMERIC = /^\d[\d,.]*$/;
const NOTE_FAILED = /invalid|failed/i;

interface Context {
  length: number;
  count: number;
  hashes: number[];
}
const NO_CONTEXT: Context = { length: 0, count: 0, hashes: [] };

/** Fresh arrays (a batch that outlives the next call). */
const fresh = {
  f32: (_: string, n: number) => new Float32Array(n),
  i32: (_: string, n: number) => new Int32Array(n),
};

/**
 * Features of every candidate of a batch of observations, in one set of arrays; in `arena`'s
 * buffers when one is given (valid until its next use), else in new arrays.
 */
export function featurizeBatch(
  inputs: readonly PolicyInput[],
  sets: readonly CandidateSet[],
  buckets: number,
  priorWeight = 1,
  arena: Pick<FeatureArena, 'f32' | 'i32'> = fresh,
): FeatureBatch {
  const B = inputs.length;
  const sizes = sets.map((s) => s.candidates.length);
  const total = sizes.reduce((a, n) => a + n, 0);
  const offsets: number[] = [];
  const owner = arena.i32('owner', total);
  let o = 0;
  sizes.forEach((n, b) => {
    offsets.push(o);
    owner.fill(b, o, o + n);
    o += n;
  });
  const batch: FeatureBatch = {
    candidates: sets.map((s) => s.candidates),
    sizes,
    offsets,
    owner,
    total,
    dense: arena.f32('dense', total * DENSE_SIZE),
    candTok: arena.i32('candTok', total * BAG.candidate),
    candW: arena.f32('candW', total * BAG.candidate),
    ctxTok: arena.i32('ctxTok', total * BAG.context),
    ctxW: arena.f32('ctxW', total * BAG.context),
    intentTok: arena.i32('intentTok', B * BAG.intent),
    intentW: arena.f32('intentW', B * BAG.intent),
    stateTok: arena.i32('stateTok', B * BAG.state),
    stateW: arena.f32('stateW', B * BAG.state),
    prior: arena.f32('prior', total),
  };
  for (let b = 0; b < B; b++) featurizeInto(inputs[b]!, sets[b]!, buckets, priorWeight, batch, b);
  return batch;
}

/** Observation b's rows of a batch, as views (no copy). */
export function observationFeatures(batch: FeatureBatch, b: number): ObservationFeatures {
  const from = batch.offsets[b]!;
  const to = from + batch.sizes[b]!;
  return {
    candidates: batch.candidates[b]!,
    dense: batch.dense.subarray(from * DENSE_SIZE, to * DENSE_SIZE),
    candTok: batch.candTok.subarray(from * BAG.candidate, to * BAG.candidate),
    candW: batch.candW.subarray(from * BAG.candidate, to * BAG.candidate),
    ctxTok: batch.ctxTok.subarray(from * BAG.context, to * BAG.context),
    ctxW: batch.ctxW.subarray(from * BAG.context, to * BAG.context),
    intentTok: batch.intentTok.subarray(b * BAG.intent, (b + 1) * BAG.intent),
    intentW: batch.intentW.subarray(b * BAG.intent, (b + 1) * BAG.intent),
    stateTok: batch.stateTok.subarray(b * BAG.state, (b + 1) * BAG.state),
    stateW: batch.stateW.subarray(b * BAG.state, (b + 1) * BAG.state),
    prior: batch.prior.subarray(from, to),
  };
}

/** Features of every candidate of one observation. */
export function featurize(
  input: PolicyInput,
  set: CandidateSet,
  buckets: number,
  priorWeight = 1,
): ObservationFeatures {
  return observationFeatures(featurizeBatch([input], [set], buckets, priorWeight), 0);
}

/** Writes observation b's rows of the batch. */
function featurizeInto(
  input: PolicyInput,
  set: CandidateSet,
  buckets: number,
  priorWeight: number,
  batch: FeatureBatch,
  b: number,
): void {
  const { candidates, tree, phrases } = set;
  const { nodes } = input;
  const C = candidates.length;
  const F = DENSE_SIZE;
  const row0 = batch.offsets[b]!;
  const { dense, candTok, candW, ctxTok, ctxW } = batch;

  const intent = intentInfos.get(input.intent);
  const intentLower = intent.lower;
  const intentSet = intent.set;
  const intentSize = intentSet.size;
  const question = intent.question;
  const quoted = intent.quoted;
  const phrasesLower = phrases.map((p) => p.toLowerCase());

  // Per node and per row, computed at most once per observation (many candidates share them).
  const names: (NameInfo | undefined)[] = new Array(tree.n);
  const nodeName = (i: number): NameInfo => {
    let v = names[i];
    if (v === undefined) {
      v = nameInfo(nodes.names[i] ?? '');
      names[i] = v;
    }
    return v;
  };
  const nameOf = (i: number): TextInfo => nodeName(i).raw;
  const nodePhrase = new Map<number, number>();
  const hasPhrase = (i: number): number => {
    let v = nodePhrase.get(i);
    if (v === undefined) {
      const nm = nameOf(i).lower;
      v = nm && phrasesLower.some((p) => p.length > 2 && nm.includes(p)) ? 1 : 0;
      nodePhrase.set(i, v);
    }
    return v;
  };
  const rowContexts = new Map<number, Context>();
  const rowPhrases = new Map<number, number>();
  const rangeOf = (i: number): [number, number, number] => {
    const r = tree.row[i]!;
    return r >= 0 ? [r, r, tree.rowEnd[i]!] : [-2 - i, Math.max(0, i - 2), Math.min(tree.n, i + 3)];
  };
  const contextOf = (i: number): Context => {
    if (i < 0) return NO_CONTEXT;
    const [key, from, to] = rangeOf(i);
    let c = rowContexts.get(key);
    if (!c) {
      // The row's words, whole names at a time until 48 (as the bag and the overlap see them).
      const words: string[] = [];
      const hashes: number[] = [];
      for (let j = from; j < to && words.length < 48; j++) {
        const t = nameOf(j);
        for (let k = 0; k < t.content.length; k++) {
          words.push(t.content[k]!);
          if (hashes.length < BAG.context) hashes.push(t.contentHashes[k]!);
        }
      }
      const count = words.length > 0 && intentSize > 0 ? hitsIn([...new Set(words)], intentSet) : 0;
      c = { length: words.length, count, hashes };
      rowContexts.set(key, c);
    }
    return c;
  };
  const rowHasPhrase = (i: number): number => {
    if (i < 0 || tree.row[i]! < 0) return 0;
    const [key, from, to] = rangeOf(i);
    let v = rowPhrases.get(key);
    if (v === undefined) {
      v = 0;
      for (let j = from; j < to && v === 0; j++) v = hasPhrase(j);
      rowPhrases.set(key, v);
    }
    return v;
  };

  const h = new Float64Array(C);
  const kindIndex = new Int8Array(C);
  const kindCount = new Int32Array(KINDS.length);
  for (let k = 0; k < C; k++) {
    kindIndex[k] = KINDS.indexOf(candidates[k]!.kind);
    kindCount[kindIndex[k]!]! += 1;
  }

  const history = input.history;
  const last = history.length > 0 ? history[history.length - 1]! : null;
  const lastKind = last ? kindOfAction(last) : null;
  const usedElements = new Set(history.map(elementOfAction).filter((e): e is string => e !== null));
  const actionCounts = new Map<string, number>();
  for (const a of history) actionCounts.set(a, (actionCounts.get(a) ?? 0) + 1);
  const typedTexts = textsTyped(history);
  const note = input.note ?? '';
  const stepFrac = input.horizon > 0 ? Math.min(1, input.step / input.horizon) : 0;
  const remaining = input.horizon - input.step;
  const lastKindIndex = lastKind ? KINDS.indexOf(lastKind) : KINDS.length;
  const noteSet = note ? 1 : 0;
  const noteFailed = NOTE_FAILED.test(note) ? 1 : 0;
  const firstStep = input.step === 0 ? 1 : 0;
  const lastStep = remaining <= 1 ? 1 : 0;
  const logStep = Math.log1p(input.step) / 3;

  for (let k = 0; k < C; k++) {
    const c = candidates[k]!;
    const row = row0 + k;
    let f = row * F;
    const kind = kindIndex[k]!;
    const isType = c.kind === 'type';
    const isAnswer = c.kind === 'answer';
    dense[f + kind] = 1;
    f += KINDS.length;
    dense[f++] = c.action === 'Scroll [up]' ? 1 : 0;
    dense[f + SOURCES.indexOf(c.source)] = 1;
    f += SOURCES.length;
    const role = c.node >= 0 ? (nodes.roles[c.node] ?? '') : '';
    dense[f + (c.node < 0 ? ROLE_NONE : (ROLE_INDEX.get(role) ?? ROLE_OTHER))] = 1;
    f += N_ROLES;

    const text = c.text;
    // Most candidate texts are their node's name (a link, a page text): no lookup for those.
    const own = c.node >= 0 ? nodeName(c.node) : null;
    const tt = own !== null && own.clean === text ? own.cleaned : textInfo(text);
    const textLower = tt.lower;
    // overlap of the text's words with the task's
    const count = tt.content.length > 0 && intentSize > 0 ? hitsIn(tt.uniqueContent, intentSet) : 0;
    const ofCandidate = count > 0 ? count / tt.uniqueContent.length : 0;
    const textInIntent = textLower.length > 0 && intentLower.includes(textLower) ? 1 : 0;
    dense[f++] = Math.log1p(count) / 2;
    dense[f++] = ofCandidate;
    dense[f++] = count > 0 ? count / intentSize : 0;
    dense[f++] = textInIntent;
    let phraseInText = 0;
    let phraseEq = 0;
    let longest = 0;
    for (const p of phrasesLower) {
      const inText = textLower.includes(p);
      if (p.length > 0 && inText) phraseInText = 1;
      if (p === textLower) phraseEq = 1;
      if (inText && p.length > longest) longest = p.length;
    }
    dense[f++] = phraseInText;
    dense[f++] = text.length === 0 ? 1 : 0;
    dense[f++] = phraseEq;
    dense[f++] = phrasesLower.length > 0 ? longest / 40 : 0;

    // the row (for typing, the field's label)
    let ctxLength: number;
    let ctxCount: number;
    let ctxHashes: ArrayLike<number>;
    let field: TextInfo | null = null;
    if (isType) {
      field = nameOf(c.node);
      ctxLength = field.content.length;
      ctxCount = ctxLength > 0 && intentSize > 0 ? hitsIn(field.uniqueContent, intentSet) : 0;
      ctxHashes = field.contentHashes;
    } else {
      const cx = contextOf(c.node);
      ctxLength = cx.length;
      ctxCount = cx.count;
      ctxHashes = cx.hashes;
    }
    const rowOfIntent = ctxCount > 0 ? ctxCount / intentSize : 0;
    dense[f++] = Math.log1p(ctxCount) / 2;
    dense[f++] = rowOfIntent;
    dense[f++] = isType ? 0 : rowHasPhrase(c.node);

    // typing
    const element = c.node >= 0 ? String(nodes.ids[c.node]) : null;
    const typedBefore = isType && typedTexts.has(text) ? 1 : 0;
    let labelNear = 0;
    if (field) {
      dense[f++] = ctxCount > 0 ? ctxCount / field.uniqueContent.length : 0;
      dense[f++] = quoted.has(text) ? 1 : 0;
      dense[f++] = phrases.length > 0 ? phrases.indexOf(text) / phrases.length : 0;
      dense[f++] = NUMERIC.test(text) ? 1 : 0;
      dense[f++] = role === 'searchbox' ? 1 : 0;
      dense[f++] = element !== null && history.some((a) => a.startsWith(`Type [${element}]`)) ? 1 : 0;
      dense[f++] = typedBefore;
      labelNear = labelBeforePhrase(intentLower, textLower, field.content);
      dense[f++] = labelNear;
    } else f += 8;

    // repetition
    const used = element !== null && usedElements.has(element) ? 1 : 0;
    dense[f++] = Math.log1p(actionCounts.get(c.action) ?? 0);
    dense[f++] = used;
    dense[f++] = last === c.action ? 1 : 0;

    dense[f + lastKindIndex] = 1;
    f += KINDS.length + 1;
    dense[f++] = stepFrac;
    dense[f++] = firstStep;
    dense[f++] = lastStep;
    dense[f++] = logStep;
    dense[f++] = noteSet;
    dense[f++] = noteFailed;
    dense[f++] = c.node >= 0 ? (nodes.inViewport[c.node] ?? 0) : 0;
    dense[f++] = c.node >= 0 ? Math.min(1, (nodes.depths[c.node] ?? 0) / 20) : 0;
    dense[f++] = c.node >= 0 && tree.n > 0 ? c.node / tree.n : 0;
    dense[f++] = Math.log1p(kindCount[kind]!) / 6;

    const shape = isAnswer ? tt.shape : NO_SHAPE;
    if (isAnswer) {
      for (let s = 0; s < N_SHAPES; s++) dense[f + s] = shape[s]!;
      f += N_SHAPES;
      for (let q = 0; q < N_QUESTIONS; q++) dense[f + q] = question[q]!;
      f += N_QUESTIONS;
      // shape × question: the row starts zeroed, so only the flags both set are written
      for (let s = 0; s < N_SHAPES; s++)
        if (shape[s] !== 0)
          for (let q = 0; q < N_QUESTIONS; q++)
            if (question[q] !== 0) dense[f + s * N_QUESTIONS + q] = shape[s]! * question[q]!;
      f += N_SHAPES * N_QUESTIONS;
      dense[f++] = Math.log1p(tt.all.length) / 4;
    }

    h[k] = heuristic(c, {
      ofCandidate,
      phraseInText,
      textInIntent,
      rowOfIntent,
      labelNear,
      typedBefore,
      used,
      shape,
      question,
    });

    // token bags: the candidate's kind, role, source and words; its row's words
    fillBag(
      [KIND_TOKEN[kind]!, roleToken(role), SOURCE_TOKEN[SOURCES.indexOf(c.source)]!],
      tt.allHashes,
      tt.all.length,
      buckets,
      candTok,
      candW,
      row * BAG.candidate,
      BAG.candidate,
    );
    if (ctxLength > 0)
      fillBag([], ctxHashes, ctxLength, buckets, ctxTok, ctxW, row * BAG.context, BAG.context);
  }

  fillBag(
    [],
    intent.bag,
    intent.bag.length,
    buckets,
    batch.intentTok,
    batch.intentW,
    b * BAG.intent,
    BAG.intent,
  );
  const state = stateBags.get(`${lastKind ?? 'none'} ${input.url}`);
  fillBag([], state, state.length, buckets, batch.stateTok, batch.stateW, b * BAG.state, BAG.state);

  // The fixed log-prior: every kind gets its KIND_WEIGHT share of the mass; within a kind,
  // UNIFORM_SHARE is spread uniformly and the rest by the exploration heuristic (scaled by
  // priorWeight), so the heuristic steers sampling without ever starving the other candidates.
  const hmax = new Float64Array(KINDS.length).fill(-Infinity);
  const lse = new Float64Array(KINDS.length);
  for (let k = 0; k < C; k++) {
    h[k] = h[k]! * priorWeight;
    hmax[kindIndex[k]!] = Math.max(hmax[kindIndex[k]!]!, h[k]!);
  }
  for (let k = 0; k < C; k++) lse[kindIndex[k]!]! += Math.exp(h[k]! - hmax[kindIndex[k]!]!);
  for (let k = 0; k < C; k++) {
    const kind = kindIndex[k]!;
    const steered = Math.exp(h[k]! - hmax[kind]!) / lse[kind]!;
    batch.prior[row0 + k] =
      Math.log(KIND_WEIGHT[KINDS[kind]!]) +
      Math.log(UNIFORM_SHARE / kindCount[kind]! + (1 - UNIFORM_SHARE) * steered);
  }
}

/**
 * Whether the field's label is named just before the phrase in the task ("titled “…”" → Title,
 * "with the body “…”" → Body, "signed with the nickname E. Lopes" → Nickname).
 */
function labelBeforePhrase(intentLower: string, phraseLower: string, label: readonly string[]): number {
  const at = intentLower.indexOf(phraseLower);
  if (at < 0 || label.length === 0) return 0;
  const before = tokens(intentLower.slice(Math.max(0, at - 40), at)).slice(-4);
  const stem = (w: string) => w.slice(0, 5);
  return label.some((l) => l.length > 2 && before.some((b) => stem(b) === stem(l))) ? 1 : 0;
}

interface HeuristicInputs {
  ofCandidate: number;
  phraseInText: number;
  textInIntent: number;
  rowOfIntent: number;
  labelNear: number;
  typedBefore: number;
  used: number;
  shape: readonly number[];
  question: readonly number[];
}

const S = Object.fromEntries(SHAPES.map((s, i) => [s, i])) as Record<(typeof SHAPES)[number], number>;
const Q = Object.fromEntries(QUESTIONS.map((q, i) => [q, i])) as Record<(typeof QUESTIONS)[number], number>;

/**
 * The exploration heuristic, in nats, that shares a kind's prior mass among its candidates: a
 * fixed part of the architecture (not trained), so that the untrained policy's samples are
 * plausible often enough for TTI's filter to keep some. Clicks on what the task names, a task
 * phrase typed into the field the task labels it for, answers from the rows the task talks about
 * and of the shape the question asks for. The learned score adds to it and can overrule it.
 */
function heuristic(c: Candidate, x: HeuristicInputs): number {
  switch (c.kind) {
    case 'click':
    case 'hover':
      return 2 * x.ofCandidate + x.phraseInText - x.used;
    case 'type':
      return 2 * x.labelNear - 2 * x.typedBefore;
    case 'answer': {
      const q = x.question;
      const sh = x.shape;
      const agree =
        (sh[S.price]! && q[Q.price]!) ||
        (sh[S.number]! && q[Q.count]!) ||
        (sh[S.date]! && q[Q.when]!) ||
        (sh[S.person]! && q[Q.who]!)
          ? 1
          : 0;
      const done = c.source === 'done' ? (q[Q.navigate]! ? 3 : -1) : 0;
      return 2 * x.rowOfIntent + 1.5 * agree - 1.5 * x.textInIntent * (c.source === 'intent' ? 0 : 1) + done;
    }
    default:
      return 0;
  }
}

/** The dense features' names, in order (for docs and debugging). */
export function denseFeatureNames(): string[] {
  const names: string[] = [];
  names.push(...KINDS.map((k) => `kind=${k}`), 'scroll_up', ...SOURCES.map((s) => `source=${s}`));
  names.push(...ROLE_BUCKETS.map((r) => `role=${r[0]}`), 'role=other', 'role=none');
  names.push('ov_count', 'ov_of_candidate', 'ov_of_intent', 'text_in_intent', 'phrase_in_text', 'text_empty');
  names.push('text_is_phrase', 'longest_phrase_in_text');
  names.push('row_ov_count', 'row_ov_of_intent', 'row_has_phrase');
  names.push(
    'type_field_ov',
    'type_quoted',
    'type_phrase_pos',
    'type_numeric',
    'type_searchbox',
    'type_field_used',
    'type_text_used',
    'type_label_near_phrase',
  );
  names.push('repeat_count', 'element_used', 'repeat_last');
  names.push(...KINDS.map((k) => `last=${k}`), 'last=none');
  names.push('step_frac', 'first_step', 'last_step', 'log_step', 'note', 'note_failed');
  names.push('in_viewport', 'depth', 'position', 'kind_count');
  names.push(...SHAPES.map((s) => `shape=${s}`), ...QUESTIONS.map((q) => `question=${q}`));
  for (const s of SHAPES) for (const q of QUESTIONS) names.push(`${s}x${q}`);
  names.push('answer_length');
  return names;
}

export type { Tree };
