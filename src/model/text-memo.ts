// What the candidate builder and the featurizer derive from a string, memoised per string: the
// same node names, answer texts and task words come back request after request (across a batch's
// observations and an episode's steps), and deriving them (regex tokenising, hashing, answer shapes
// and parts) was most of featurizing. One lookup per node name gives everything derived from it;
// what only some strings need is derived on first use. Values are shared: never mutate them.
import { Memo } from './memo.js';
import { clean, contentOf, fnv1a, shapeOf, tokens } from './text.js';

/** A text's words and their token hashes (a token bag's bucket is the hash modulo the bucket count). */
export class TextInfo {
  readonly lower: string;
  /** tokens(text) */
  readonly all: readonly string[];
  /** contentTokens(text) */
  readonly content: readonly string[];
  readonly allHashes: readonly number[];
  readonly contentHashes: readonly number[];
  private unique: readonly string[] | null = null;
  private shapeFlags: readonly number[] | null = null;

  constructor(readonly text: string) {
    this.lower = text.toLowerCase();
    this.all = tokens(text);
    this.content = contentOf(this.all);
    this.allHashes = this.all.map(fnv1a);
    this.contentHashes = this.content.map(fnv1a);
  }

  /** `content` without repeats. */
  get uniqueContent(): readonly string[] {
    this.unique ??= [...new Set(this.content)];
    return this.unique;
  }

  /** shapeOf(text) */
  get shape(): readonly number[] {
    this.shapeFlags ??= shapeOf(this.text);
    return this.shapeFlags;
  }
}

/** A node name: as written, cleaned (what actions and answers use), and what derives from those. */
export class NameInfo {
  /** clean(name) */
  readonly clean: string;
  /** The name's words (tokens do not depend on whitespace, so the same for the cleaned name). */
  readonly raw: TextInfo;
  private cleanedInfo: TextInfo | null;
  private answers: { node: string; parts: readonly string[] } | null = null;

  constructor(name: string) {
    this.raw = new TextInfo(name);
    this.clean = clean(name);
    this.cleanedInfo = this.clean === name ? this.raw : null;
  }

  /** The cleaned name's TextInfo (its `lower` is the cleaned name's). */
  get cleaned(): TextInfo {
    this.cleanedInfo ??= textInfo(this.clean);
    return this.cleanedInfo;
  }

  /** The name as an answer, and its parts as answers (see candidates.ts; computed on first use). */
  answerTexts(derive: (clean: string) => { node: string; parts: readonly string[] }): {
    node: string;
    parts: readonly string[];
  } {
    this.answers ??= derive(this.clean);
    return this.answers;
  }
}

/** Entries per memo generation: MiniArena's 2,399 demo steps hold ≈14k distinct strings; more costs GC time. */
const CAPACITY = 1 << 12;

const texts = new Memo<TextInfo>(CAPACITY, (text) => new TextInfo(text));
const names = new Memo<NameInfo>(CAPACITY, (name) => new NameInfo(name));

export const textInfo = (text: string): TextInfo => texts.get(text);
export const nameInfo = (name: string): NameInfo => names.get(name);

/** Lookups and misses of the name and text memos since the process started (for stats). */
export function textMemoStats(): { hits: number; misses: number; size: number } {
  return {
    hits: texts.hits + names.hits,
    misses: texts.misses + names.misses,
    size: texts.size + names.size,
  };
}
