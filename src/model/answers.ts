// The ANSWER candidates of one observation: each page text and its parts (a price, a date, the value
// after "Label: "), each column of like rows joined, filtered by the task's words and counted, a
// column of amounts as its range, a row's run of like siblings, the cells under headers the task
// names, the task's own phrases, and Done. Only where the task offers a stop.
import type { Candidate, TextSource } from './candidates.js';
import { intentWordMemo } from './phrases.js';
import { clean, DONE_ANSWER } from './text.js';
import type { NameInfo } from './text-memo.js';
import { CELLS, type Tree } from './tree.js';
import type { PolicyInput } from './types.js';

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

/** What the candidate builder shares with the answers: the observation, its tree and the output. */
export interface AnswerContext {
  input: PolicyInput;
  tree: Tree;
  phrases: readonly string[];
  /** the candidates so far; an answer seen again may move its evidence to a better place */
  out: Candidate[];
  push(c: Candidate): void;
  info(i: number): NameInfo;
}

/** Appends the observation's answer candidates to `ctx.out` (none where no stop is offered). */
export function pushAnswers(ctx: AnswerContext): void {
  const { input, tree, phrases, out, push, info } = ctx;
  const { nodes } = input;
  const name = (i: number) => info(i).clean;
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
}
