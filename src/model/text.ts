// Text helpers for candidates and features: tokens, hashing, stop words, answer shapes.

/** Lowercased word tokens (letters, digits; "$12.50" gives "12.50", "#23" gives "23"). */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[a-z0-9]+(?:[.'][a-z0-9]+)*/g)) out.push(m[0]);
  return out;
}

// Words that say nothing about which element or answer a task wants.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of in on to for and or with by at from is are was were be been it its this that these those ' +
    'me my i you your we our what which who whom when how many much does do did has have had there their ' +
    'them all any each every into as not no please show tell give find than then so if about'
  ).split(' '),
);

/** Tokens minus stop words: what overlap features compare. */
export function contentTokens(text: string): string[] {
  return contentOf(tokens(text));
}

/** The content tokens among tokens(text) (without tokenizing again). */
export function contentOf(all: readonly string[]): string[] {
  return all.filter((t) => !STOP_WORDS.has(t));
}

/** 32-bit FNV-1a: a stable hash for token buckets (the same in every process and version). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Whitespace collapsed and trimmed: the canonical form of any text inside an action. */
export function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export const SHAPES = ['number', 'price', 'date', 'id', 'person', 'short', 'long', 'done'] as const;
export type Shape = (typeof SHAPES)[number];

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*';
const DATE_RE = new RegExp(
  `\\b${MONTH}\\.? \\d{1,2},? \\d{4}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b`,
  'i',
);

/** What an answer text looks like, as 0/1 flags in SHAPES order. */
export function shapeOf(text: string): number[] {
  const t = text.trim();
  const words = t.split(/\s+/).filter(Boolean);
  const number = /^[-+]?\d[\d,]*(\.\d+)?$/.test(t) ? 1 : 0;
  const price = /^\$\s?\d[\d,]*(\.\d\d)?$|^\d[\d,]*\.\d\d$/.test(t) ? 1 : 0;
  const date = DATE_RE.test(t) && words.length <= 6 ? 1 : 0;
  const id = /^#\d+$|^[A-Z]{2,}-\d+$|^[a-z0-9-]+\/[a-z0-9-]+$/i.test(t) ? 1 : 0;
  // "Ava Alvarez", "SaltyComet373", "byteblaze": names of people and accounts.
  const person =
    (words.length === 2 && words.every((w) => /^[A-Z][a-z]+\.?$/.test(w))) ||
    (words.length === 1 && /^[A-Za-z]+[A-Z0-9][A-Za-z0-9]*\d*$/.test(t) && /[a-z]/.test(t))
      ? 1
      : 0;
  const short = words.length <= 3 ? 1 : 0;
  const long = words.length >= 8 ? 1 : 0;
  const done = t === DONE_ANSWER ? 1 : 0;
  return [number, price, date, id, person, short, long, done];
}

export const DONE_ANSWER = 'Done';

export const QUESTIONS = [
  'count',
  'price',
  'who',
  'when',
  'which',
  'list',
  'title',
  'status',
  'navigate',
] as const;

/** What the task asks for, as 0/1 flags in QUESTIONS order. */
export function questionOf(intent: string): number[] {
  const t = intent.toLowerCase();
  const count = /\bhow many\b|\bnumber of\b|\bcount\b/.test(t) ? 1 : 0;
  const price = /\bprice\b|\bcost\b|\bhow much\b|\bspen[dt]\b|\btotal\b/.test(t) ? 1 : 0;
  const who = /\bwho\b|\bwhose\b|\bwhich (?:user|reviewer|member)s?\b|\bauthor\b/.test(t) ? 1 : 0;
  const when = /\bwhen\b|\bdate\b|\bdue\b/.test(t) ? 1 : 0;
  const which = /\bwhich\b|\bwhat\b/.test(t) ? 1 : 0;
  const list = /\blist\b|\bwhich (?:products|labels|reviewers|items)\b|\bwhat labels\b|\ball\b/.test(t)
    ? 1
    : 0;
  const title = /\btitle\b|\bname\b/.test(t) ? 1 : 0;
  const status = /\bstatus\b|\brole\b|\bsku\b/.test(t) ? 1 : 0;
  // Imperative tasks change or show a page; any answer but N/A ends them.
  const navigate =
    /^(?:show|open|put|add|buy|write|create|post|reply|leave|close|upvote|downvote|set|go)\b/.test(t) ? 1 : 0;
  return [count, price, who, when, which, list, title, status, navigate];
}
