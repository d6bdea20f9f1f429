// The actions the policy chooses among, built from one observation. A small, meaningful set is
// what makes a random-init policy explore usefully: click only what is visible and clickable,
// type only task phrases into visible text fields, answer only with texts the page shows (or the
// task quotes), and go back or scroll only when that can change something. Every action string is
// canonical, so rebuilding the candidates of a recorded step finds the chosen one by equality.
import { Memo } from './memo.js';
import { clean, contentTokens, DONE_ANSWER } from './text.js';
import { type NameInfo, nameInfo } from './text-memo.js';
import type { NodeColumns, PolicyInput } from './types.js';

export const KINDS = ['click', 'type', 'hover', 'select', 'answer', 'back', 'scroll'] as const;
export type ActionKind = (typeof KINDS)[number];

/** How a candidate's text was made (a feature, and useful when reading the policy's choices). */
export const SOURCES = ['none', 'node', 'part', 'column', 'count', 'intent', 'done', 'range'] as const;
export type TextSource = (typeof SOURCES)[number];

export interface Candidate {
  kind: ActionKind;
  /** The canonical TTI action string, e.g. "Click [42]", "Type [7] [Blue Mug]", "ANSWER [$12.50]". */
  action: string;
  /** Index into the node columns of the element acted on or whose text is answered; -1 if none. */
  node: number;
  /** The element's name (click, hover), the typed text (type), the answer (answer), else "". */
  text: string;
  source: TextSource;
}

export const CLICK_ROLES = new Set([
  'link',
  'button',
  'radio',
  'checkbox',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'combobox',
]);
export const TYPE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
/** Hover only where it can open something; elsewhere it is a wasted step. */
export const HOVER_ROLES = new Set(['menuitem', 'menubar', 'menu', 'tab']);
// Names of these are labels of controls or structure, never an answer.
const NOT_ANSWER_ROLES = new Set([
  'RootWebArea',
  'textbox',
  'searchbox',
  'combobox',
  'spinbutton',
  'button',
  'ListMarker',
  'radio',
  'checkbox',
  'option',
  'menuitem',
  'separator',
  'LineBreak',
  'form',
  'main',
  'navigation',
  'banner',
  'contentinfo',
  'search',
  'img',
  'image',
  'MenuListPopup',
  'switch',
  'slider',
]);
const MAX_ANSWER_CHARS = 200;
/** Joined lists may be long ("List the titles …" over 17 issues); must_include only needs all items in. */
const MAX_JOIN_CHARS = 1200;
const MAX_GROUP = 30;
/** A text that is one amount: "$21.99", "1,200", "-4". */
const AMOUNT = /^[$€£]?\s?-?\d[\d,]*(\.\d+)?$/;

/** Structure of the tree, computed once per observation and shared with the featurizer. */
export interface Tree {
  n: number;
  parent: Int32Array;
  /** Nodes in each node's subtree (itself included). */
  size: Int32Array;
  /**
   * The "row" a node belongs to, as a range of node indices [row, rowEnd): the nearest ancestor
   * with 2..ROW_MAX named nodes below it, or, in a list whose items the tree flattened, one item's
   * run of siblings. -1 when none.
   */
  row: Int32Array;
  rowEnd: Int32Array;
  /** 1 when the node's row is a run of siblings (its columns are offsets in the run). */
  segment: Uint8Array;
  /** In a table with column headers, the header of a cell's column (for the cell and what is in it); -1 elsewhere. */
  header: Int32Array;
}

const ROW_MAX = 14;

export function treeOf(nodes: NodeColumns): Tree {
  const n = nodes.ids.length;
  const parent = new Int32Array(n).fill(-1);
  const size = new Int32Array(n).fill(1);
  const named = new Int32Array(n);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = nodes.depths[i] ?? 0;
    while (stack.length > 0 && (nodes.depths[stack[stack.length - 1]!] ?? 0) >= d) stack.pop();
    parent[i] = stack.length > 0 ? stack[stack.length - 1]! : -1;
    stack.push(i);
  }
  // Children come after their parent, so a reverse pass accumulates subtree counts.
  for (let i = n - 1; i >= 0; i--) {
    if ((nodes.names[i] ?? '').trim()) named[i]! += 1;
    const p = parent[i]!;
    if (p >= 0) {
      size[p]! += size[i]!;
      named[p]! += named[i]!;
    }
  }
  const row = new Int32Array(n).fill(-1);
  const rowEnd = new Int32Array(n).fill(-1);
  const segment = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    for (let a = parent[i]!; a >= 0; a = parent[a]!) {
      if (named[a]! > ROW_MAX) break;
      if (named[a]! >= 2) {
        row[i] = a;
        rowEnd[i] = a + size[a]!;
        break;
      }
    }
  }
  // Flat lists: WebArena's cleaning drops empty listitems, so a list's items become one run of
  // siblings (link, price, rating, link, price, rating, …). Cut such a run at each child with the
  // role of its first child (a ListMarker when there is one): each piece is a row. A short list
  // (two search hits) is cut too, or its items would share one row and one context.
  const children = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p < 0) continue;
    const list = children.get(p);
    if (list) list.push(i);
    else children.set(p, [i]);
  }
  for (const [p, kids] of children) {
    if (kids.length < 4 || (named[p]! <= ROW_MAX && nodes.roles[p] !== 'list')) continue;
    const anchor = kids.some((k) => nodes.roles[k] === 'ListMarker') ? 'ListMarker' : nodes.roles[kids[0]!];
    let starts = kids.filter((k) => nodes.roles[k] === anchor);
    // An item that opens with two texts (an email's sender, then its subject, then its buttons)
    // starts at the first: a piece of anchors only joins the piece after it, unless every piece is
    // one (a plain list of links).
    const next = (k: number) => kids[kids.indexOf(k) + 1];
    const alone = starts.filter((m) => {
      const after = next(m);
      return after === undefined || nodes.roles[after] === anchor;
    });
    if (alone.length > 0 && alone.length < starts.length) {
      const joined = new Set(alone.map(next));
      starts = starts.filter((m) => !joined.has(m));
    }
    if (starts.length < 2) continue;
    starts.forEach((m, k) => {
      const end = k + 1 < starts.length ? starts[k + 1]! : p + size[p]!;
      let count = 0;
      for (let i = m; i < end; i++) if ((nodes.names[i] ?? '').trim()) count += 1;
      if (count > ROW_MAX) return;
      for (let i = m; i < end; i++) {
        // a row inside the piece (a table row in it, say) is tighter; keep it
        if (row[i]! > p) continue;
        row[i] = m;
        rowEnd[i] = end;
        segment[i] = 1;
      }
    });
  }
  // A block with no row above it (a review among many: "Review by Zoe Rossi" over its heading,
  // stars and text) is its own row, so its name is read with the text it heads.
  for (let i = 0; i < n; i++) {
    const own = (nodes.names[i] ?? '').trim() ? 1 : 0;
    if (row[i]! >= 0 || named[i]! - own < 2 || named[i]! > ROW_MAX) continue;
    if (nodes.roles[i] === 'RootWebArea') continue;
    row[i] = i;
    rowEnd[i] = i + size[i]!;
  }
  const header = new Int32Array(n).fill(-1);
  columnHeaders(nodes, size, header);
  return { n, parent, size, row, rowEnd, segment, header };
}

const TABLES = new Set(['table', 'grid', 'treegrid']);
const CELLS = new Set(['cell', 'gridcell', 'rowheader']);

/**
 * Labels the cells of each table with their column's header (and what is inside a cell with the
 * same). The k-th cell of a row is in column k; where the tree flattened a table's rows, cells
 * are counted modulo the number of headers.
 */
function columnHeaders(nodes: NodeColumns, size: Int32Array, label: Int32Array): void {
  for (let t = 0; t < size.length; t++) {
    if (!TABLES.has(nodes.roles[t] ?? '')) continue;
    const end = t + size[t]!;
    const headers: number[] = [];
    for (let i = t + 1; i < end; i++) if (nodes.roles[i] === 'columnheader') headers.push(i);
    if (headers.length < 2) continue;
    let column = 0;
    for (let i = t + 1; i < end; i++) {
      const role = nodes.roles[i] ?? '';
      if (role === 'row') column = 0;
      else if (CELLS.has(role)) {
        const h = headers[column % headers.length]!;
        column += 1;
        if (!nodes.names[h]?.trim()) continue;
        for (let j = i; j < i + size[i]!; j++) label[j] = h;
      }
    }
  }
}

/**
 * Phrases of the task a person would type or answer with: quoted spans, runs of capitalised
 * words and numbers ("Cindral Smart T-Shirt", "Sprint 23", "2509 Sunset Blvd"), names with a
 * slash ("byteblaze/chat-widget"), and numbers on their own. Deterministic, in intent order.
 */
export function intentPhrases(intent: string): string[] {
  return [...phrasesOf(intent)];
}

function computeIntentPhrases(intent: string): string[] {
  const out: string[] = [];
  const add = (s: string, trim = true) => {
    let c = clean(s);
    if (trim) c = c.replace(/^[,.;:!?]+|[,;:!?]+$/g, '');
    if (c && !out.includes(c)) out.push(c);
  };
  // Quoted spans are typed as they are ("… kettlebells?", "… helpful!").
  for (const m of intent.matchAll(/"([^"]+)"|“([^”]+)”|(?:^|\s)'([^']+)'(?=[\s,.?!]|$)/g))
    add(m[1] ?? m[2] ?? m[3] ?? '', false);
  const unquoted = intent.replace(/"[^"]*"|“[^”]*”/g, ' | ');
  // Words keep inner punctuation (T-Shirt, E., v2.5, #23); commas and other marks end a run.
  const words = [...unquoted.matchAll(/[^\s,;:!?()|]+|[,;:!?()|]/g)].map((m) => m[0]);
  let run: string[] = [];
  const flush = () => {
    while (run.length > 0 && run[run.length - 1] === '&') run.pop();
    if (run.length > 0) {
      add(run.join(' '));
      // "NC 63021" → also "NC": a form has a field for each
      let k = run.length;
      while (k > 1 && /^\d[\d,.]*$/.test(run[k - 1]!)) k -= 1;
      if (k < run.length) add(run.slice(0, k).join(' '));
    }
    run = [];
  };
  const sentenceEnd = (w: string) => w.endsWith('.') && w.length > 2 && !/^[A-Z]\.$/.test(w);
  words.forEach((w, i) => {
    const bare = w.replace(/[.]+$/, '');
    const capital = /^[A-Z]/.test(w) && !(i === 0 || w === 'I');
    const numeric = /\d/.test(w);
    // "Juniper & Co": an ampersand joins capitalised words
    if ((capital || numeric || (w === '&' && run.length > 0)) && bare) run.push(sentenceEnd(w) ? bare : w);
    else flush();
    if (sentenceEnd(w)) flush();
  });
  flush();
  for (const w of words) {
    if (w.includes('/') && /[a-z]/i.test(w)) add(w.replace(/[.]+$/, ''));
    if (/^#?\d[\d,.]*$/.test(w)) add(w.replace(/[.,]+$/, ''));
  }
  return out;
}

// An episode asks with the same task at every step, so its phrases are worked out once.
const phraseMemo = new Memo<readonly string[]>(1024, computeIntentPhrases);
const phrasesOf = (intent: string): readonly string[] => phraseMemo.get(intent);
const intentWordMemo = new Memo<readonly string[]>(1024, contentTokens);

/** The text after the last "Action:" of a reply: the action string the reply carries. */
export function actionOfReply(reply: string): string {
  const at = reply.lastIndexOf('Action:');
  return (at >= 0 ? reply.slice(at + 'Action:'.length) : reply).trim();
}

// Parts of a page text that can be an answer on their own: prices, numbers, dates, "#23", and
// the value after a "Label: " prefix ("Status: Complete" → "Complete").
const PART_RES = [
  /\$\s?\d+(?:,\d{3})*(?:\.\d+)?/g,
  /(?<![\w.$#,-])\d+(?:,\d{3})*(?:\.\d+)?(?![\w])/g,
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}, \d{4}\b/g,
  /#\d+/g,
];

function partsOf(text: string): string[] {
  if (text.length > 120) return [];
  const parts: string[] = [];
  for (const re of PART_RES) for (const m of text.matchAll(re)) parts.push(m[0]);
  const label = /^[^:]{1,30}:\s*(.+)$/.exec(text);
  if (label?.[1]) parts.push(label[1]);
  // "No reviews yet", "No comments": a count of zero
  if (/^no\b/i.test(text) && text.length < 40) parts.push('0');
  return parts.map(clean).filter((p) => p && p !== text);
}

/** Canonical answer text: whitespace collapsed, no brackets (they would end the action early). */
function answerText(text: string, max = MAX_ANSWER_CHARS): string {
  return clean(text.replace(/[[\]]/g, ' ')).slice(0, max);
}

/** A cleaned node name as an answer, and its parts as answers (memoised with the name, text-memo.ts). */
function answersOf(name: string): { node: string; parts: readonly string[] } {
  return { node: answerText(name), parts: partsOf(name).map((p) => answerText(p)) };
}

export interface CandidateSet {
  candidates: Candidate[];
  tree: Tree;
  phrases: readonly string[];
}

/** Candidates with the tree structure the featurizer reuses. */
export function buildCandidateSet(input: PolicyInput): CandidateSet {
  const { nodes } = input;
  const tree = treeOf(nodes);
  const phrases = phrasesOf(input.intent);
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const push = (c: Candidate) => {
    if (seen.has(c.action)) return;
    seen.add(c.action);
    out.push(c);
  };
  const visible = (i: number) => nodes.inViewport[i] === 1 && (nodes.visible?.[i] ?? 1) === 1;
  // Where the env says what can be clicked or edited (a <span> with a click handler shows as
  // text, a focus-only field as a textbox), every such node is a candidate too.
  const clickable = (i: number) => nodes.clickable?.[i] === 1 || nodes.focusable?.[i] === 1;
  const editable = (i: number) => nodes.editable?.[i] === 1;
  // One memo lookup per node name, however many times the name is used below.
  const infos: (NameInfo | undefined)[] = new Array(tree.n);
  const info = (i: number): NameInfo => {
    let v = infos[i];
    if (v === undefined) {
      v = nameInfo(nodes.names[i] ?? '');
      infos[i] = v;
    }
    return v;
  };
  const name = (i: number) => info(i).clean;

  for (let i = 0; i < tree.n; i++) {
    const role = nodes.roles[i] ?? '';
    if (!visible(i)) continue;
    const id = nodes.ids[i];
    if (CLICK_ROLES.has(role) || (role !== 'RootWebArea' && clickable(i)))
      push({ kind: 'click', action: `Click [${id}]`, node: i, text: name(i), source: 'node' });
    if (TYPE_ROLES.has(role) || editable(i))
      for (const p of phrases) {
        const text = clean(p.replace(/[[\]]/g, ' '));
        push({ kind: 'type', action: `Type [${id}] [${text}]`, node: i, text, source: 'intent' });
      }
    if (HOVER_ROLES.has(role))
      push({ kind: 'hover', action: `Hover [${id}]`, node: i, text: name(i), source: 'node' });
    // A <select>: one candidate per option (its options are in its subtree, not on screen)
    if (role === 'combobox')
      for (let j = i + 1; j < i + tree.size[i]!; j++) {
        if (nodes.roles[j] !== 'option') continue;
        const text = clean((nodes.names[j] ?? '').replace(/[[\]]/g, ' '));
        if (text) push({ kind: 'select', action: `Select [${id}] [${text}]`, node: i, text, source: 'node' });
      }
  }

  // A suite where stopping never scores (MiniWoB++) does not offer it.
  const stopOffered = input.offers?.stop ?? true;
  // A text shown in several places ("Kofi Hughes" as an assignee filter, then in an issue's row)
  // is one answer; its evidence is the place whose row says most of the task's words, so the
  // policy reads the row the task is about rather than the first menu that repeats the value.
  const taskWords = new Set(intentWordMemo.get(input.intent));
  const rowScore = new Map<number, number>();
  const aboutTask = (i: number): number => {
    const r = i >= 0 ? tree.row[i]! : -1;
    if (r < 0) return 0;
    let v = rowScore.get(r);
    if (v === undefined) {
      const words = new Set<string>();
      for (let j = r; j < tree.rowEnd[i]!; j++) for (const w of info(j).raw.content) words.add(w);
      v = 0;
      for (const w of words) if (taskWords.has(w)) v += 1;
      rowScore.set(r, v);
    }
    return v;
  };
  const answerAt = new Map<string, number>();
  const onPage = (s: TextSource) => s === 'node' || s === 'part';
  const pushAnswer = (t: string, node: number, source: TextSource) => {
    if (!t || !stopOffered) return;
    const action = `ANSWER [${t}]`;
    const at = answerAt.get(action);
    if (at !== undefined) {
      const first = out[at]!;
      if (onPage(source) && onPage(first.source) && aboutTask(node) > aboutTask(first.node))
        out[at] = { ...first, node, source };
      return;
    }
    answerAt.set(action, out.length);
    push({ kind: 'answer', action, node, text: t, source });
  };
  const answer = (text: string, node: number, source: TextSource) =>
    pushAnswer(answerText(text, source === 'column' ? MAX_JOIN_CHARS : MAX_ANSWER_CHARS), node, source);
  const columns = new Map<string, number[]>();
  const rows = new Map<number, number[]>();
  for (let i = 0; i < tree.n; i++) {
    const role = nodes.roles[i] ?? '';
    const text = name(i);
    if (!text || NOT_ANSWER_ROLES.has(role)) continue;
    const answers = info(i).answerTexts(answersOf);
    pushAnswer(answers.node, i, 'node');
    for (const part of answers.parts) pushAnswer(part, i, 'part');
    const p = tree.parent[i]!;
    const gp = p >= 0 ? tree.parent[p]! : -1;
    const position = p >= 0 ? i - p : 0;
    // A column: the same place in sibling rows (the title of every issue, every price).
    const r0 = tree.row[i]!;
    const key =
      r0 >= 0
        ? `${role}|${tree.parent[r0]}|${i - r0}`
        : `${role}|${nodes.depths[i]}|${p >= 0 ? nodes.roles[p] : ''}|${gp}|${gp >= 0 ? position : i}`;
    const column = columns.get(key);
    if (column) column.push(i);
    else columns.set(key, [i]);
    const r = tree.row[i]!;
    if (r >= 0) {
      const row = rows.get(r);
      if (row) row.push(i);
      else rows.set(r, [i]);
    }
  }
  // Multi-item answers ("List the titles …", "What labels …"): every text of one list column
  // joined, a run of like siblings in a row, and the cells of a row under the headers the task says.
  // Filters: the task's phrases and content words, each selecting the rows that mention it.
  const filters = [
    ...phrases.map((p) => p.toLowerCase()).filter((p) => p.length > 2),
    ...intentWordMemo.get(input.intent).filter((t) => t.length > 2),
  ];
  const rowText = new Map<number, string>();
  const textOfRow = (i: number): string => {
    const r = tree.row[i]!;
    let t = rowText.get(r);
    if (t === undefined) {
      const parts: string[] = [];
      for (let j = r; j < tree.rowEnd[i]!; j++) parts.push(info(j).raw.lower);
      t = ` ${parts.join(' ')} `;
      rowText.set(r, t);
    }
    return t;
  };
  // A column of amounts also answers with its lowest and highest ("What is the price range …"),
  // written as the page writes them.
  const range = (members: readonly number[]) => {
    let lo: { v: number; t: string } | undefined;
    let hi: { v: number; t: string } | undefined;
    for (const m of members) {
      const t = name(m);
      if (!AMOUNT.test(t)) return;
      const v = Number(t.replace(/[^\d.-]/g, ''));
      if (lo === undefined || v < lo.v) lo = { v, t };
      if (hi === undefined || v > hi.v) hi = { v, t };
    }
    if (lo !== undefined && hi !== undefined && lo.v < hi.v)
      answer(`${lo.t} - ${hi.t}`, members[0]!, 'range');
  };
  for (const members of columns.values()) {
    if (members.length < 2 || members.length > MAX_GROUP) continue;
    answer([...new Set(members.map(name))].join(', '), members[0]!, 'column');
    if (tree.row[members[0]!]! < 0) continue;
    // The column restricted to the rows that mention the task ("… assigned to me in
    // byteblaze/chat-widget", "posts … to the science forum"), and how many they are: at most the
    // three most selective filters.
    const subsets = new Map<string, number[]>();
    for (const f of filters) {
      const mine = members.filter((m) => textOfRow(m).includes(f));
      if (mine.length > 0 && mine.length < members.length) subsets.set(mine.join(','), mine);
    }
    const chosen = [...subsets.values()].sort((a, b) => a.length - b.length).slice(0, 3);
    for (const mine of chosen) {
      answer([...new Set(mine.map(name))].join(', '), mine[0]!, 'column');
      answer(String(mine.length), mine[0]!, 'count');
      range(mine);
    }
    range(members);
  }
  // In the table row the task names (most of its words), the cells under headers the task says
  // ("grand total", "status"), two or more at a time: "$437.95, Complete".
  const header = tree.header;
  const asked = new Map<number, number[]>();
  for (const [r, members] of rows) {
    const cells = members.filter(
      (m) =>
        CELLS.has(nodes.roles[m] ?? '') &&
        header[m]! >= 0 &&
        info(header[m]!).raw.content.some((w) => taskWords.has(w)),
    );
    if (cells.length >= 2 && cells.length <= 4) asked.set(r, cells);
  }
  const named = Math.max(0, ...[...asked.values()].map((cells) => aboutTask(cells[0]!)));
  for (const cells of asked.values()) {
    if (named === 0 || aboutTask(cells[0]!) < named) continue;
    for (let mask = 1; mask < 1 << cells.length; mask++) {
      const pick = cells.filter((_, k) => mask & (1 << k));
      if (pick.length >= 2) answer(pick.map(name).join(', '), pick[0]!, 'column');
    }
  }
  for (const members of rows.values()) {
    if (members.length < 2) continue;
    // (A whole row joined is no answer: it passes must_include by holding everything, the title,
    // the dates and the assignee besides the labels asked for. Since 2026-11-27 it is not offered.)
    // A run of like siblings inside a row (an issue's label links between its title and its
    // assignee) is a list of its own: "accessibility, bug".
    let run: number[] = [];
    const flush = () => {
      if (run.length >= 2 && run.length < members.length)
        answer([...new Set(run.map(name))].join(', '), run[0]!, 'column');
      run = [];
    };
    for (const m of members) {
      const last = run[run.length - 1];
      const like =
        last !== undefined && tree.parent[m] === tree.parent[last] && nodes.roles[m] === nodes.roles[last];
      if (!like) flush();
      run.push(m);
    }
    flush();
  }
  for (const p of phrases) answer(p, -1, 'intent');
  answer(DONE_ANSWER, -1, 'done');

  if (input.history.length > 0 && input.offers?.navigation !== false)
    push({ kind: 'back', action: 'GoBack', node: -1, text: '', source: 'none' });
  const { above, below } = offscreen(nodes);
  if (below) push({ kind: 'scroll', action: 'Scroll [down]', node: -1, text: '', source: 'none' });
  if (above) push({ kind: 'scroll', action: 'Scroll [up]', node: -1, text: '', source: 'none' });
  return { candidates: out, tree, phrases };
}

/** Whether part of the page lies above the viewport and below it (from the in-viewport flags). */
export function offscreen(nodes: NodeColumns): { above: boolean; below: boolean } {
  const n = nodes.ids.length;
  let first = -1;
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (nodes.inViewport[i] === 1 && nodes.roles[i] !== 'RootWebArea') {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return { above: n > 1, below: n > 1 };
  let above = false;
  for (let i = 0; i < first; i++)
    if (nodes.roles[i] !== 'RootWebArea' && (nodes.names[i] ?? '').trim()) above = true;
  let below = false;
  for (let i = last + 1; i < n; i++) if ((nodes.names[i] ?? '').trim()) below = true;
  return { above, below };
}

/** The candidate actions for one observation, in a deterministic order. */
export function buildCandidates(input: PolicyInput): Candidate[] {
  return buildCandidateSet(input).candidates;
}
