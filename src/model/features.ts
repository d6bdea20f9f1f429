// Per-candidate features: a dense vector of hand-made features that carry across templates (word
// overlap between the task and the candidate or its row, role, kind, repetition, step budget,
// answer shape crossed with the question's kind), and hashed token bags the model embeds (the
// candidate's words, its row's words, the task's words, the URL and the last action) so it can
// also learn template-specific associations.
import {
  type ActionKind,
  type Candidate,
  type CandidateSet,
  KINDS,
  SOURCES,
  type Tree,
} from './candidates.js';
import { clean, contentTokens, fnv1a, QUESTIONS, questionOf, SHAPES, shapeOf, tokens } from './text.js';
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

/** One observation's features, ready to pack into a batch. */
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
  /** [candidates] log-prior: -log(candidates of this kind), so each kind starts equally likely */
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

function fillBag(
  tokensIn: string[],
  buckets: number,
  tok: Int32Array,
  w: Float32Array,
  offset: number,
  slots: number,
) {
  const k = Math.min(tokensIn.length, slots);
  for (let j = 0; j < k; j++) {
    tok[offset + j] = fnv1a(tokensIn[j]!) % buckets;
    w[offset + j] = 1 / k;
  }
}

interface Overlap {
  count: number;
  ofCandidate: number;
  ofIntent: number;
}

function overlap(candidate: readonly string[], intent: ReadonlySet<string>): Overlap {
  if (candidate.length === 0 || intent.size === 0) return { count: 0, ofCandidate: 0, ofIntent: 0 };
  const uniq = new Set(candidate);
  let count = 0;
  for (const t of uniq) if (intent.has(t)) count += 1;
  return { count, ofCandidate: count / uniq.size, ofIntent: count / intent.size };
}

/** Features of every candidate of one observation. */
export function featurize(
  input: PolicyInput,
  set: CandidateSet,
  buckets: number,
  priorWeight = 1,
): ObservationFeatures {
  const { candidates, tree, phrases } = set;
  const { nodes } = input;
  const C = candidates.length;
  const F = DENSE_SIZE;
  const dense = new Float32Array(C * F);
  const candTok = new Int32Array(C * BAG.candidate);
  const candW = new Float32Array(C * BAG.candidate);
  const ctxTok = new Int32Array(C * BAG.context);
  const ctxW = new Float32Array(C * BAG.context);

  const intentLower = input.intent.toLowerCase();
  const intentContent = contentTokens(input.intent);
  const intentSet = new Set(intentContent);
  const question = questionOf(input.intent);
  const phrasesLower = phrases.map((p) => p.toLowerCase());
  const quoted = new Set(
    [...input.intent.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((m) => clean(m[1] ?? m[2] ?? '')),
  );

  // Per node and per row, computed at most once per observation (many candidates share them).
  const nodeTokens = new Map<number, string[]>();
  const tokensOfNode = (i: number): string[] => {
    let t = nodeTokens.get(i);
    if (!t) {
      t = contentTokens(nodes.names[i] ?? '');
      nodeTokens.set(i, t);
    }
    return t;
  };
  const nodePhrase = new Map<number, number>();
  const hasPhrase = (i: number): number => {
    let v = nodePhrase.get(i);
    if (v === undefined) {
      const nm = (nodes.names[i] ?? '').toLowerCase();
      v = nm && phrasesLower.some((p) => p.length > 2 && nm.includes(p)) ? 1 : 0;
      nodePhrase.set(i, v);
    }
    return v;
  };
  const rowTokens = new Map<number, string[]>();
  const rowPhrases = new Map<number, number>();
  const rangeOf = (i: number): [number, number, number] => {
    const r = tree.row[i]!;
    return r >= 0 ? [r, r, tree.rowEnd[i]!] : [-2 - i, Math.max(0, i - 2), Math.min(tree.n, i + 3)];
  };
  const contextOf = (i: number): string[] => {
    if (i < 0) return [];
    const [key, from, to] = rangeOf(i);
    let t = rowTokens.get(key);
    if (!t) {
      const acc: string[] = [];
      for (let j = from; j < to && acc.length < 48; j++) acc.push(...tokensOfNode(j));
      t = acc;
      rowTokens.set(key, t);
    }
    return t;
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
  const textTokens = new Map<string, { content: string[]; all: string[] }>();
  const tokensOfText = (text: string) => {
    let t = textTokens.get(text);
    if (!t) {
      t = { content: contentTokens(text), all: tokens(text) };
      textTokens.set(text, t);
    }
    return t;
  };

  const h = new Float64Array(candidates.length);
  const kindCount = new Map<ActionKind, number>();
  for (const c of candidates) kindCount.set(c.kind, (kindCount.get(c.kind) ?? 0) + 1);

  const history = input.history;
  const last = history.length > 0 ? history[history.length - 1]! : null;
  const lastKind = last ? kindOfAction(last) : null;
  const usedElements = new Set(history.map(elementOfAction).filter((e): e is string => e !== null));
  const actionCounts = new Map<string, number>();
  for (const h of history) actionCounts.set(h, (actionCounts.get(h) ?? 0) + 1);
  const typedTexts = new Set(
    history
      .map((h) => /^Type\s*\[\d+\]\s*\[([\s\S]*)\]$/.exec(h)?.[1])
      .filter((t): t is string => t !== undefined),
  );
  const note = input.note ?? '';
  const stepFrac = input.horizon > 0 ? Math.min(1, input.step / input.horizon) : 0;
  const remaining = input.horizon - input.step;

  candidates.forEach((c, k) => {
    const o = k * F;
    let f = o;
    const set1 = (v: number) => {
      dense[f++] = v;
    };
    const oneHot = (index: number, size: number) => {
      if (index >= 0 && index < size) dense[f + index] = 1;
      f += size;
    };
    oneHot(KINDS.indexOf(c.kind), KINDS.length);
    set1(c.action === 'Scroll [up]' ? 1 : 0);
    oneHot(SOURCES.indexOf(c.source), SOURCES.length);
    const role = c.node >= 0 ? (nodes.roles[c.node] ?? '') : '';
    oneHot(c.node < 0 ? ROLE_NONE : (ROLE_INDEX.get(role) ?? ROLE_OTHER), N_ROLES);

    const text = c.text;
    const textLower = text.toLowerCase();
    const tt = tokensOfText(text);
    const ov = overlap(tt.content, intentSet);
    set1(Math.log1p(ov.count) / 2);
    set1(ov.ofCandidate);
    set1(ov.ofIntent);
    set1(textLower.length > 0 && intentLower.includes(textLower) ? 1 : 0);
    let phraseInText = 0;
    let phraseEq = 0;
    for (const p of phrasesLower) {
      if (p.length > 0 && textLower.includes(p)) phraseInText = 1;
      if (p === textLower) phraseEq = 1;
    }
    set1(phraseInText);
    set1(text.length === 0 ? 1 : 0);
    set1(phraseEq);
    set1(
      phrasesLower.length > 0
        ? Math.max(...phrasesLower.map((p) => (textLower.includes(p) ? p.length : 0))) / 40
        : 0,
    );

    const context = c.kind === 'type' ? tokensOfNode(c.node) : contextOf(c.node);
    const cov = overlap(context, intentSet);
    set1(Math.log1p(cov.count) / 2);
    set1(cov.ofIntent);
    set1(c.kind !== 'type' ? rowHasPhrase(c.node) : 0);

    // typing
    const isType = c.kind === 'type';
    set1(isType ? overlap(tokensOfNode(c.node), intentSet).ofCandidate : 0);
    set1(isType && quoted.has(text) ? 1 : 0);
    set1(isType && phrases.length > 0 ? phrases.indexOf(text) / phrases.length : 0);
    set1(isType && /^\d[\d,.]*$/.test(text) ? 1 : 0);
    set1(isType && role === 'searchbox' ? 1 : 0);
    const element = c.node >= 0 ? String(nodes.ids[c.node]) : null;
    set1(isType && element !== null && history.some((h) => h.startsWith(`Type [${element}]`)) ? 1 : 0);
    set1(isType && typedTexts.has(text) ? 1 : 0);
    const labelNear = isType ? labelBeforePhrase(intentLower, textLower, tokensOfNode(c.node)) : 0;
    set1(labelNear);

    // repetition
    set1(Math.log1p(actionCounts.get(c.action) ?? 0));
    set1(element !== null && usedElements.has(element) ? 1 : 0);
    set1(last === c.action ? 1 : 0);

    oneHot(lastKind ? KINDS.indexOf(lastKind) : KINDS.length, KINDS.length + 1);
    set1(stepFrac);
    set1(input.step === 0 ? 1 : 0);
    set1(remaining <= 1 ? 1 : 0);
    set1(Math.log1p(input.step) / 3);
    set1(note ? 1 : 0);
    set1(/invalid|failed/i.test(note) ? 1 : 0);
    set1(c.node >= 0 ? (nodes.inViewport[c.node] ?? 0) : 0);
    set1(c.node >= 0 ? Math.min(1, (nodes.depths[c.node] ?? 0) / 20) : 0);
    set1(c.node >= 0 && tree.n > 0 ? c.node / tree.n : 0);
    set1(Math.log1p(kindCount.get(c.kind) ?? 1) / 6);

    const shape = c.kind === 'answer' ? shapeOf(text) : new Array<number>(N_SHAPES).fill(0);
    for (const s of shape) set1(s);
    for (const q of question) set1(c.kind === 'answer' ? q : 0);
    for (const s of shape) for (const q of question) set1(s * q);
    set1(c.kind === 'answer' ? Math.log1p(tt.all.length) / 4 : 0);

    h[k] = heuristic(c, {
      ofCandidate: ov.ofCandidate,
      phraseInText,
      textInIntent: textLower.length > 0 && intentLower.includes(textLower) ? 1 : 0,
      rowOfIntent: cov.ofIntent,
      labelNear,
      typedBefore: isType && typedTexts.has(text) ? 1 : 0,
      used: element !== null && usedElements.has(element) ? 1 : 0,
      shape,
      question,
    });

    // token bags
    const candBag = [`k:${c.kind}`, `r:${role}`, `s:${c.source}`, ...tt.all];
    fillBag(candBag, buckets, candTok, candW, k * BAG.candidate, BAG.candidate);
    fillBag(context, buckets, ctxTok, ctxW, k * BAG.context, BAG.context);
  });

  const intentTok = new Int32Array(BAG.intent);
  const intentW = new Float32Array(BAG.intent);
  const qTokens = QUESTIONS.filter((_, i) => question[i] === 1).map((q) => `q:${q}`);
  fillBag([...qTokens, ...intentContent], buckets, intentTok, intentW, 0, BAG.intent);
  const stateTok = new Int32Array(BAG.state);
  const stateW = new Float32Array(BAG.state);
  let urlPath = input.url;
  try {
    const u = new URL(input.url);
    urlPath = `${u.pathname} ${u.search}`;
  } catch {
    // not a URL: use the text as it is
  }
  const stateBag = [
    `last:${lastKind ?? 'none'}`,
    ...tokens(urlPath)
      .filter((t) => !/^\d+$/.test(t))
      .map((t) => `u:${t}`),
  ];
  fillBag(stateBag, buckets, stateTok, stateW, 0, BAG.state);

  // The fixed log-prior: every kind gets the same mass; within a kind, half of it is shared
  // uniformly and half by the exploration heuristic (scaled by priorWeight), so the heuristic
  // steers sampling without ever starving the other candidates of the kind.
  const prior = new Float32Array(C);
  const lse = new Map<ActionKind, number>();
  const hmax = new Map<ActionKind, number>();
  candidates.forEach((c, k) => {
    h[k] = h[k]! * priorWeight;
    hmax.set(c.kind, Math.max(hmax.get(c.kind) ?? -Infinity, h[k]!));
  });
  candidates.forEach((c, k) => {
    lse.set(c.kind, (lse.get(c.kind) ?? 0) + Math.exp(h[k]! - hmax.get(c.kind)!));
  });
  candidates.forEach((c, k) => {
    const n = kindCount.get(c.kind) ?? 1;
    const steered = Math.exp(h[k]! - hmax.get(c.kind)!) / lse.get(c.kind)!;
    prior[k] = Math.log(KIND_WEIGHT[c.kind]) + Math.log(UNIFORM_SHARE / n + (1 - UNIFORM_SHARE) * steered);
  });
  return { candidates, dense, candTok, candW, ctxTok, ctxW, intentTok, intentW, stateTok, stateW, prior };
}

/**
 * Whether the field's label is named just before the phrase in the task ("titled “…”" → Title,
 * "with the body “…”" → Body, "signed with the nickname E. Lopes" → Nickname).
 */
function labelBeforePhrase(intentLower: string, phraseLower: string, label: string[]): number {
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
  shape: number[];
  question: number[];
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
