// What the policy reads, as arrays: every observation of a batch becomes token bags and a few
// exact-match facts per candidate action, the task as a token sequence, and the episode's trail
// as bags. Nothing here is learned and nothing names a suite: tokens are hashed words of the
// page, the task and the trail; the network (network.ts) learns what they mean.
//
// Candidates are padded to the batch's largest candidate count (C) and task tokens to T, so the
// network runs as a few batched matMuls with no gather (gathers cost µs per index on wasm).
import { buildCandidateSet, type Candidate, KINDS, type Tree } from './candidates.js';
import { Memo } from './memo.js';
import { clean, contentOf, fnv1a, SHAPES, shapeOf, tokens } from './text.js';
import { actionSignature } from './trail.js';
import type { NodeColumns, PolicyInput, TrailStep } from './types.js';

/** Hash buckets of the default network (network.ts), here so that env workers need not load it. */
export const DEFAULT_BUCKETS = 16384;

/** Task tokens kept (longer tasks are cut; MiniArena's longest is ≈45). */
export const MAX_TASK_TOKENS = 64;

/** Per candidate: the bags pooled into embeddings. */
export const CANDIDATE_BAGS = ['self', 'context', 'label', 'argument', 'value'] as const;
/** Per observation. */
export const OBSERVATION_BAGS = ['url', 'title', 'history', 'last'] as const;
const BAG_CAP = {
  self: 24,
  context: 32,
  label: 12,
  argument: 24,
  value: 12,
  url: 16,
  title: 16,
  history: 64,
  last: 24,
};

/** Exact-match facts of a candidate, general to any page (each in [0, 1] or a small range). */
export const SCALARS = [
  'self_in_task', // share of the candidate's content words that the task has
  'task_in_self', // share of the task's content words the candidate has
  'context_in_task',
  'task_in_context',
  'argument_in_task',
  'task_in_argument',
  'label_in_task',
  'context_inside_task', // the longest text of the row that the task quotes whole (share of its words)
  'self_is_phrase', // the element's text is one of the task's phrases (quoted, a name)
  'self_inside_task', // the element's whole text appears in the task
  'argument_inside_task',
  'acted_before', // the same element (role, name, rank) was acted on earlier in the episode
  'acted_here', // … on this very page
  'name_acted', // an element of this name was acted on
  'typed_before', // this text was typed earlier
  'value_is_argument', // the field already holds this text
  'value_set', // the field holds some text
  'in_viewport',
  'y', // box top / viewport height
  'depth',
  'rank', // among elements of the same role and name
  'position', // in the page's node order
  'kind_count', // log of the candidates of this kind
  'argument_after_field_word', // the task has the typed text just after a word of the field's name or label
  'affix_of_task', // quoted task words that begin or end a longer word of the element (of two)
  'ordinal_in_task', // the task's "3rd" or "third" is this element's place among its like
  'fresh', // the element appeared since the last observation (a suggestion, a folder's files)
  'inside_is_most', // no candidate's row quotes more of the task (the product named in full, not its prefix)
] as const;
export const SCALAR_SIZE = SCALARS.length;

/** Facts of a task token. */
export const TOKEN_FLAGS = [
  'quoted',
  'capitalised',
  'numeric',
  'content',
  'in_page',
  'in_url',
  'in_title',
  'in_history', // the trail has it: a done part of the task (a forum already posted to)
  'in_past_urls',
] as const;
export const TOKEN_FLAG_SIZE = TOKEN_FLAGS.length;

export const OBSERVATION_SCALARS = [
  'step',
  'first_step',
  'steps_left',
  'note',
  'history_length',
  'task_in_history', // share of the task's content words the trail has acted on or typed
  'quoted_in_history', // … of its quoted words
  'task_on_page', // share of the task's content words the page shows
] as const;
export const OBSERVATION_SCALAR_SIZE = OBSERVATION_SCALARS.length;

export const KIND_SIZE = KINDS.length;

/** Index lists of hashed tokens, one list per row (CSR). */
export interface Bags {
  tok: Int32Array;
  /** row r's tokens are tok[off[r]] … tok[off[r + 1] - 1] */
  off: Int32Array;
}

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

// --- tokens -----------------------------------------------------------------------------------

const memoTokens = new Memo<readonly string[]>(8192, tokens);

/**
 * A word's match key: plurals folded ("milestones" = "milestone", "issues" = "issue"), so an exact
 * match finds the link a task names in the singular. Only for matching; embeddings see the word.
 */
export function matchKey(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (/(?:sses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

const MONTH_DAY =
  /\b((?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+)(\d{1,2})\b/gi;

/**
 * A day of the month written after its month ("Jul 21, 2022") becomes the word "day21", for
 * matching only: an issue "#21" or "21 comments" in the task must not match every row updated on
 * a 21st, and a date in the task still matches the same date on the page. One word stays one word.
 */
export function markDays(text: string): string {
  return text.replace(MONTH_DAY, '$1day$2');
}

/** A text's words with its days marked: what match keys are made of. */
const memoMarked = new Memo<readonly string[]>(8192, (t) => tokens(markDays(t)));
/** A text's words as match keys. */
const memoKeys = new Memo<readonly string[]>(8192, (t) => memoMarked.get(t).map(matchKey));
/** A text's content words as match keys. */
const memoContent = new Memo<readonly string[]>(8192, (t) => contentOf(memoMarked.get(t)).map(matchKey));

/** The words of a text and the shape of its numbers, as bucket ids. */
function hashed(word: string, buckets: number): number {
  // bucket 0 stays free for padding
  return 1 + (fnv1a(word) % (buckets - 1));
}

/** Special tokens (roles, kinds, states, shapes) live in the same table under a prefix. */
const special = (kind: string, value: string) => `\u0001${kind}:${value}`;

function shapeTokens(word: string): string | null {
  if (/^\d+$/.test(word)) return word.length <= 2 ? special('shape', 'small-int') : special('shape', 'int');
  if (/^\d+[.,]\d+$/.test(word)) return special('shape', 'decimal');
  return null;
}

class BagBuilder {
  readonly tok: number[] = [];
  readonly off: number[] = [0];
  private current = 0;
  constructor(
    private readonly buckets: number,
    private readonly cap: number,
  ) {}
  words(text: string): void {
    for (const w of memoTokens.get(text)) {
      this.add(w);
      const s = shapeTokens(w);
      if (s) this.add(s);
    }
  }
  add(word: string): void {
    if (this.current >= this.cap) return;
    this.tok.push(hashed(word, this.buckets));
    this.current += 1;
  }
  end(): void {
    this.off.push(this.tok.length);
    this.current = 0;
  }
  /** Appends a built one-row bag as this row (null: an empty row). */
  append(bag: Bags | null): void {
    if (bag) for (const t of bag.tok) this.tok.push(t);
    this.end();
  }
  build(): Bags {
    return { tok: Int32Array.from(this.tok), off: Int32Array.from(this.off) };
  }
}

// --- the task ----------------------------------------------------------------------------------

interface TaskText {
  words: string[];
  /** match keys of the words */
  keys: string[];
  flags: number[][];
  content: Set<string>;
  lower: string;
  /** content word → its positions */
  positions: Map<string, number[]>;
  /** quoted words of two letters or more: what an element's word may begin or end with */
  quoted: string[];
  /** the ordinals the task says ("2nd", "third"), as numbers */
  ordinals: Set<number>;
}

const ORDINAL_WORDS = 'first second third fourth fifth sixth seventh eighth ninth tenth'.split(' ');

/** 3 for "3rd" or "third"; 0 for any other word. */
function ordinalOf(word: string): number {
  const m = /^(\d{1,3})(?:st|nd|rd|th)$/.exec(word);
  if (m) return Number(m[1]);
  return ORDINAL_WORDS.indexOf(word) + 1;
}

const TASK_WORD = /[A-Za-z0-9]+(?:[.'][A-Za-z0-9]+)*/g;

function computeTask(intent: string): TaskText {
  const quoted: [number, number][] = [];
  for (const m of intent.matchAll(/"[^"]*"|“[^”]*”/g)) quoted.push([m.index, m.index + m[0].length]);
  const words: string[] = [];
  const flags: number[][] = [];
  for (const m of intent.matchAll(TASK_WORD)) {
    if (words.length >= MAX_TASK_TOKENS) break;
    const w = m[0].toLowerCase();
    const inQuote = quoted.some(([a, b]) => m.index > a && m.index < b);
    const capital = /^[A-Z]/.test(m[0]) && m.index > 0;
    words.push(w);
    flags.push([inQuote ? 1 : 0, capital ? 1 : 0, /\d/.test(w) ? 1 : 0, contentOf([w]).length]);
  }
  const isContent = new Set(contentOf(words));
  const marked = [...markDays(intent).matchAll(TASK_WORD)].map((m) => m[0].toLowerCase());
  const keys = words.map((w, j) => matchKey(marked[j] ?? w));
  const content = new Set(keys.filter((_, j) => isContent.has(words[j]!)));
  const positions = new Map<string, number[]>();
  keys.forEach((k, j) => {
    if (!isContent.has(words[j]!)) return;
    const list = positions.get(k);
    if (list) list.push(j);
    else positions.set(k, [j]);
  });
  const quotedWords = [...new Set(words.filter((w, j) => flags[j]![0] === 1 && w.length >= 2))];
  const ordinals = new Set(words.map(ordinalOf).filter((n) => n > 0));
  return {
    words,
    keys,
    flags,
    content,
    lower: ` ${memoTokens.get(intent).join(' ')} `,
    positions,
    quoted: quotedWords,
    ordinals,
  };
}

/**
 * How many of the task's quoted words begin or end a longer word of `text`, of two: "starts with
 * "Mar" and ends with "ld"" marks Marigold twice and Marble once. Whole-word matches are the
 * overlap facts' part.
 */
function affixOfTask(task: TaskText, text: string): number {
  if (task.quoted.length === 0 || !text) return 0;
  const words = memoTokens.get(text);
  let count = 0;
  for (const q of task.quoted)
    if (words.some((w) => w.length > q.length && (w.startsWith(q) || w.endsWith(q)))) count += 1;
  return Math.min(1, count / 2);
}
const memoTask = new Memo<TaskText>(1024, computeTask);

/** How many task words before a typed text may stand between it and the field's word. */
const FIELD_WORD_WINDOW = 3;

/**
 * 1 if the task has `argument` within FIELD_WORD_WINDOW words after a word of the field's name or
 * label: "the username "bob" and the password "x1"" types bob into Username, not Password. Which
 * field a text goes to is said by the word before it, and no overlap count sees that order.
 */
function argumentAfterFieldWord(task: TaskText, argument: string, fieldWords: ReadonlySet<string>): number {
  if (fieldWords.size === 0) return 0;
  const arg = memoKeys.get(argument);
  if (arg.length === 0) return 0;
  for (let p = 1; p + arg.length <= task.keys.length; p++) {
    if (!arg.every((w, k) => task.keys[p + k] === w)) continue;
    for (let q = Math.max(0, p - FIELD_WORD_WINDOW); q < p; q++) if (fieldWords.has(task.keys[q]!)) return 1;
  }
  return 0;
}

/**
 * A sign at either end of a name that words drop: a folder's "Docs/", a "+ Add", a "Close ×", a
 * "More ▾". Sentence punctuation says nothing of what an element does, so it is not one.
 */
function edgeGlyph(name: string): string {
  const t = name.trim();
  if (!t) return '';
  for (const ch of [t[t.length - 1]!, t[0]!]) if (/[^\p{L}\p{N}\s.,:;!?'"()[\]]/u.test(ch)) return ch;
  return '';
}

// --- the trail -------------------------------------------------------------------------------

interface TrailAct {
  kind: string;
  role: string;
  name: string;
  text: string;
  signature: string;
  url: string;
}

const SIGNED =
  /^(Click|Type|Hover|Select)\s*\[([^\s\]"]+) ("(?:[^"\\]|\\.)*")(?: #\d+)?\]\s*(?:\[([\s\S]*)\])?$/;

function parseTrail(step: TrailStep): TrailAct {
  const m = SIGNED.exec(step.action);
  if (m) {
    let name = '';
    try {
      name = JSON.parse(m[3]!) as string;
    } catch {
      name = m[3]!.slice(1, -1);
    }
    const head = step.action.replace(/\s*\[[^\]]*\]\s*$/, '');
    return {
      kind: m[1]!.toLowerCase(),
      role: m[2]!,
      name,
      text: m[4] ?? '',
      signature: m[1] === 'Type' || m[1] === 'Select' ? head : step.action,
      url: step.url,
    };
  }
  const answer = /^ANSWER\s*\[([\s\S]*)\]$/.exec(step.action);
  if (answer)
    return { kind: 'answer', role: '', name: '', text: answer[1]!, signature: step.action, url: step.url };
  const kind = step.action.split(/[\s[]/)[0]!.toLowerCase();
  return { kind, role: '', name: '', text: '', signature: step.action, url: step.url };
}

/** The trail an input carries, or one rebuilt from its history (ids only: older senders). */
function trailOf(input: PolicyInput): TrailStep[] {
  if (input.trail) return input.trail;
  return input.history.map((action) => ({ url: '', action }));
}

/** A URL's path and query as words ("/forum/f/books?sort=new" → forum f books sort new). */
function urlWords(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname} ${[...u.searchParams].map(([k, v]) => `${k} ${v}`).join(' ')}`.replace(
      /[/_=&?-]/g,
      ' ',
    );
  } catch {
    return url.replace(/[/_=&?:.-]/g, ' ');
  }
}

// --- per-node context --------------------------------------------------------------------------

const TEXT_ROLES = new Set([
  'StaticText',
  'heading',
  'term',
  'definition',
  'cell',
  'columnheader',
  'rowheader',
]);

interface NodeContext {
  /**
   * A node's label: in a table with column headers, its column's header (a cell and what is in
   * it); otherwise the nearest preceding named node that is not an ancestor (a term, a "Price:").
   */
  label: Int32Array;
  /** nearest preceding heading */
  heading: Int32Array;
  /** the concatenated text of a node's descendants (a text field's value) */
  value: string[];
  /** rank among earlier nodes of the same role and name */
  rank: Int32Array;
  /** rank among earlier children of the same parent with the same role (results in a list) */
  siblingRank: Int32Array;
  /** how many share the node's role and name, and its parent and role */
  rankOf: Int32Array;
  siblingsOf: Int32Array;
}

function nodeContext(nodes: NodeColumns, tree: Tree): NodeContext {
  const n = tree.n;
  const label = new Int32Array(n).fill(-1);
  const heading = new Int32Array(n).fill(-1);
  const rank = new Int32Array(n);
  const siblingRank = new Int32Array(n);
  const value: string[] = new Array(n).fill('');
  const siblings = new Map<string, number>();
  const keys: string[] = new Array(n);
  const siblingKeys: string[] = new Array(n);
  let lastNamed = -1;
  let lastHeading = -1;
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    // an ancestor of i precedes it; skip those
    let l = lastNamed;
    while (l >= 0 && l + tree.size[l]! > i) l = -1;
    label[i] = l;
    heading[i] = lastHeading;
    const name = nodes.names[i] ?? '';
    const key = `${nodes.roles[i]}\u0000${name}`;
    const k = seen.get(key) ?? 0;
    rank[i] = k;
    seen.set(key, k + 1);
    const sibling = `${tree.parent[i]}\u0000${nodes.roles[i]}`;
    siblingRank[i] = siblings.get(sibling) ?? 0;
    siblings.set(sibling, siblingRank[i]! + 1);
    keys[i] = key;
    siblingKeys[i] = sibling;
    if (name.trim() && nodes.roles[i] !== 'RootWebArea') {
      lastNamed = i;
      if (nodes.roles[i] === 'heading') lastHeading = i;
    }
  }
  const rankOf = new Int32Array(n);
  const siblingsOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    rankOf[i] = seen.get(keys[i]!)!;
    siblingsOf[i] = siblings.get(siblingKeys[i]!)!;
  }
  // in a table, a cell's label is its column's header
  for (let i = 0; i < n; i++) if (tree.header[i]! >= 0) label[i] = tree.header[i]!;
  for (let i = 0; i < n; i++) {
    if (tree.size[i]! <= 1 || TEXT_ROLES.has(nodes.roles[i] ?? '')) continue;
    const role = nodes.roles[i] ?? '';
    if (role !== 'textbox' && role !== 'searchbox' && role !== 'combobox' && role !== 'spinbutton') continue;
    const parts: string[] = [];
    for (let j = i + 1; j < i + tree.size[i]!; j++) if (nodes.names[j]) parts.push(nodes.names[j]!);
    value[i] = clean(parts.join(' '));
  }
  return { label, heading, value, rank, siblingRank, rankOf, siblingsOf };
}

/** The task's ordinal is the node's place among nodes like it (of two or more). */
function ordinalPlace(task: TaskText, context: NodeContext, i: number): boolean {
  if (task.ordinals.size === 0) return false;
  return (
    (context.rankOf[i]! >= 2 && task.ordinals.has(context.rank[i]! + 1)) ||
    (context.siblingsOf[i]! >= 2 && task.ordinals.has(context.siblingRank[i]! + 1))
  );
}

// --- encoding ---------------------------------------------------------------------------------

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

/** Encodes one observation: its candidates and everything the network reads of them. */
export function encodeObservation(input: PolicyInput, options: EncodeOptions): EncodedObservation {
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
  const obs = Object.fromEntries(
    OBSERVATION_BAGS.map((k) => [k, new BagBuilder(options.buckets, BAG_CAP[k])]),
  ) as Record<(typeof OBSERVATION_BAGS)[number], BagBuilder>;
  const kind = new Int32Array(n);
  const scalars = new Float32Array(n * SCALAR_SIZE);
  const taskTok = new Int32Array(T);
  const taskFlags = new Float32Array(T * TOKEN_FLAG_SIZE);
  const observationScalars = new Float32Array(OBSERVATION_SCALAR_SIZE);
  const matches: [number[], number[], number[], number[]] = [[], [], [], []];

  // The page's words, the URL's, the title's and the trail's: what task tokens are found in.
  const pageWords = new Set<string>();
  for (let i = 0; i < N; i++) for (const w of memoKeys.get(nodes.names[i] ?? '')) pageWords.add(w);
  const urlText = urlWords(input.url);
  const urlSet = new Set(memoKeys.get(urlText));
  const rootIndex = nodes.roles.indexOf('RootWebArea');
  const title = rootIndex >= 0 ? (nodes.names[rootIndex] ?? '') : '';
  const titleSet = new Set(memoKeys.get(title));
  const trailWords = new Set<string>();
  const pastUrlWords = new Set<string>();
  for (const t of trail) {
    for (const w of memoKeys.get(`${t.name} ${t.text}`)) trailWords.add(w);
    if (t.url && t.url !== input.url) for (const w of memoKeys.get(urlWords(t.url))) pastUrlWords.add(w);
  }

  task.words.forEach((word, j) => {
    const w = task.keys[j]!;
    taskTok[j] = hashed(word, options.buckets);
    const [quoted, capital, numeric, content] = task.flags[j]!;
    taskFlags.set(
      [
        quoted!,
        capital!,
        numeric!,
        content!,
        pageWords.has(w) ? 1 : 0,
        urlSet.has(w) ? 1 : 0,
        titleSet.has(w) ? 1 : 0,
        trailWords.has(w) ? 1 : 0,
        pastUrlWords.has(w) ? 1 : 0,
      ],
      j * TOKEN_FLAG_SIZE,
    );
  });

  obs.url.words(urlText);
  obs.url.end();
  obs.title.words(title);
  obs.title.end();
  for (let k = trail.length - 1; k >= 0; k--) {
    const t = trail[k]!;
    obs.history.add(special('kind', t.kind));
    obs.history.words(`${t.name} ${t.text}`);
  }
  obs.history.end();
  const last = trail[trail.length - 1];
  if (last) {
    obs.last.add(special('kind', last.kind));
    if (last.role) obs.last.add(special('role', last.role));
    if (last.url === input.url) obs.last.add(special('last', 'same-page'));
    obs.last.words(`${last.name} ${last.text}`);
  } else obs.last.add(special('last', 'none'));
  obs.last.end();
  let contentWords = 0;
  let contentDone = 0;
  let quotedWords = 0;
  let quotedDone = 0;
  let contentOnPage = 0;
  task.keys.forEach((w, j) => {
    const [quoted, , , content] = task.flags[j]!;
    if (!content) return;
    contentWords += 1;
    if (trailWords.has(w)) contentDone += 1;
    if (pageWords.has(w)) contentOnPage += 1;
    if (quoted) {
      quotedWords += 1;
      if (trailWords.has(w)) quotedDone += 1;
    }
  });
  observationScalars.set([
    input.step / Math.max(1, input.horizon),
    input.step === 0 ? 1 : 0,
    Math.min(1, (input.horizon - input.step) / 10),
    input.note ? 1 : 0,
    Math.min(1, trail.length / 20),
    contentWords > 0 ? contentDone / contentWords : 0,
    quotedWords > 0 ? quotedDone / quotedWords : 0,
    contentWords > 0 ? contentOnPage / contentWords : 0,
  ]);

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
  // A node's context words, once per node (several candidates share a node).
  const contextMemo = new Map<number, { bag: Bags; words: string[] }>();
  const contextOf = (i: number) => {
    let v = contextMemo.get(i);
    if (v) return v;
    const ctx = new BagBuilder(options.buckets, BAG_CAP.context);
    const words: string[] = [];
    const r = tree.row[i]!;
    if (r >= 0)
      for (let j = r; j < tree.rowEnd[i]!; j++) {
        if (j === i || !nodes.names[j]) continue;
        ctx.words(nodes.names[j]!);
        words.push(...memoContent.get(nodes.names[j]!));
      }
    let a = tree.parent[i]!;
    for (let up = 0; a >= 0 && up < 3; a = tree.parent[a]!) {
      if (!nodes.names[a] || nodes.roles[a] === 'RootWebArea') continue;
      ctx.add(special('role', nodes.roles[a] ?? ''));
      ctx.words(nodes.names[a]!);
      words.push(...memoContent.get(nodes.names[a]!));
      up += 1;
    }
    const h = context.heading[i]!;
    if (h >= 0 && h !== i) ctx.words(nodes.names[h]!);
    ctx.end();
    v = { bag: ctx.build(), words };
    contextMemo.set(i, v);
    return v;
  };
  // Whether a node's whole text (2+ words) appears in the task: a product or a post it names.
  const wholeInTask = new Map<number, number>();
  const whole = (j: number): number => {
    let v = wholeInTask.get(j);
    if (v === undefined) {
      const words = memoTokens.get(nodes.names[j] ?? '');
      v =
        words.length >= 2 && taskContentCount > 0 && task.lower.includes(` ${words.join(' ')} `)
          ? Math.min(1, memoContent.get(nodes.names[j] ?? '').length / taskContentCount)
          : 0;
      wholeInTask.set(j, v);
    }
    return v;
  };
  const insideMemo = new Map<number, number>();
  const insideOf = (i: number): number => {
    let v = insideMemo.get(i);
    if (v !== undefined) return v;
    v = whole(i);
    const r = tree.row[i]!;
    if (r >= 0) for (let j = r; j < tree.rowEnd[i]!; j++) if (nodes.names[j]) v = Math.max(v, whole(j));
    for (let a = tree.parent[i]!, up = 0; a >= 0 && up < 3; a = tree.parent[a]!, up++)
      if (nodes.roles[a] !== 'RootWebArea') v = Math.max(v, whole(a));
    insideMemo.set(i, v);
    return v;
  };
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
    observationBags: Object.fromEntries(
      OBSERVATION_BAGS.map((k) => [k, obs[k].build()]),
    ) as EncodedObservation['observationBags'],
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
