// The task as the encoder reads it: its words and their match keys, which are quoted, capitalised
// or numbers, the ordinals it says, and where a typed text stands after a field's name.
import { MAX_TASK_TOKENS } from './layout.js';
import { markDays, matchKey, memoKeys, memoTokens } from './match-words.js';
import { Memo } from './memo.js';
import { contentOf } from './text.js';

export interface TaskText {
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
export function affixOfTask(task: TaskText, text: string): number {
  if (task.quoted.length === 0 || !text) return 0;
  const words = memoTokens.get(text);
  let count = 0;
  for (const q of task.quoted)
    if (words.some((w) => w.length > q.length && (w.startsWith(q) || w.endsWith(q)))) count += 1;
  return Math.min(1, count / 2);
}
export const memoTask = new Memo<TaskText>(1024, computeTask);

/** How many task words before a typed text may stand between it and the field's word. */
const FIELD_WORD_WINDOW = 3;

/**
 * 1 if the task has `argument` within FIELD_WORD_WINDOW words after a word of the field's name or
 * label: "the username "bob" and the password "x1"" types bob into Username, not Password. Which
 * field a text goes to is said by the word before it, and no overlap count sees that order.
 */
export function argumentAfterFieldWord(
  task: TaskText,
  argument: string,
  fieldWords: ReadonlySet<string>,
): number {
  if (fieldWords.size === 0) return 0;
  const arg = memoKeys.get(argument);
  if (arg.length === 0) return 0;
  for (let p = 1; p + arg.length <= task.keys.length; p++) {
    if (!arg.every((w, k) => task.keys[p + k] === w)) continue;
    for (let q = Math.max(0, p - FIELD_WORD_WINDOW); q < p; q++) if (fieldWords.has(task.keys[q]!)) return 1;
  }
  return 0;
}
