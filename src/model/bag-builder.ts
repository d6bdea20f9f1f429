// Token bags as the network pools them: each word hashed into a bucket, with the shape of a
// number and special tokens (roles, kinds, states) in the same table, a row capped at its size.
import type { Bags } from './layout.js';
import { memoTokens } from './match-words.js';
import { fnv1a } from './text.js';

/** The words of a text and the shape of its numbers, as bucket ids. */
export function hashed(word: string, buckets: number): number {
  // bucket 0 stays free for padding
  return 1 + (fnv1a(word) % (buckets - 1));
}

/** Special tokens (roles, kinds, states, shapes) live in the same table under a prefix. */
export const special = (kind: string, value: string) => `\u0001${kind}:${value}`;

function shapeTokens(word: string): string | null {
  if (/^\d+$/.test(word)) return word.length <= 2 ? special('shape', 'small-int') : special('shape', 'int');
  if (/^\d+[.,]\d+$/.test(word)) return special('shape', 'decimal');
  return null;
}

export class BagBuilder {
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
