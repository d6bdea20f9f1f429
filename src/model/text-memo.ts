// What the candidate builder and the featurizer derive from a string, memoised per string: the
// same node names, answer texts and task words come back request after request (across a batch's
// observations and an episode's steps), and deriving them (regex tokenising, hashing, answer shapes)
// was most of featurizing. Values are shared: callers must not mutate them.
import { Memo } from './memo.js';
import { clean, contentTokens, fnv1a, shapeOf, tokens } from './text.js';

export interface TextInfo {
  lower: string;
  /** tokens(text) */
  all: readonly string[];
  /** contentTokens(text) */
  content: readonly string[];
  /** `content` without repeats */
  uniqueContent: readonly string[];
  /** fnv1a of each token of `all` (a token bag's bucket is this modulo the bucket count) */
  allHashes: Uint32Array;
  /** fnv1a of each token of `content` */
  contentHashes: Uint32Array;
}

/** Entries per memo generation: a few pages' worth of strings of every site an env visits. */
const CAPACITY = 1 << 14;

const hashes = (ts: readonly string[]): Uint32Array => {
  const out = new Uint32Array(ts.length);
  for (let i = 0; i < ts.length; i++) out[i] = fnv1a(ts[i]!);
  return out;
};

const infos = new Memo<TextInfo>(CAPACITY, (text) => {
  const all = tokens(text);
  const content = contentTokens(text);
  return {
    lower: text.toLowerCase(),
    all,
    content,
    uniqueContent: [...new Set(content)],
    allHashes: hashes(all),
    contentHashes: hashes(content),
  };
});
const cleans = new Memo<string>(CAPACITY, clean);
const shapes = new Memo<readonly number[]>(CAPACITY, shapeOf);
const tokenHashes = new Memo<number>(CAPACITY, fnv1a);

export const textInfo = (text: string): TextInfo => infos.get(text);
/** clean(text), memoised. */
export const cleaned = (text: string): string => cleans.get(text);
/** shapeOf(text), memoised. */
export const shapeOfText = (text: string): readonly number[] => shapes.get(text);
/** fnv1a(token), memoised (for made-up tokens such as "r:link" or "u:shop"). */
export const hashOf = (token: string): number => tokenHashes.get(token);

/** Hit rate of the text memo since the process started (for stats). */
export function textMemoStats(): { hits: number; misses: number; size: number } {
  return { hits: infos.hits, misses: infos.misses, size: infos.size };
}
