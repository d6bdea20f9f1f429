// A bounded memo for per-string work (tokens, hashes, answer parts): pages of one site repeat most
// of their strings from step to step ("Add to Cart", the menu, the product names), so the
// featurizer looks each up instead of redoing regex work for every candidate of every request.
// Two generations instead of a linked list: a hit costs one Map lookup, and when the young
// generation fills up the old one is dropped whole (what was used since survives, promoted).
// A string is kept only the second time it is asked for: most strings seen once are never seen
// again (a page's own content), and keeping them would only make garbage collection slower.
import { fnv1a } from './text.js';

/** Bits of the seen-once filter (a false "seen" only keeps a string early). */
const SEEN_BITS = 1 << 20;

export class Memo<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  private seen = new Uint8Array(SEEN_BITS >> 3);
  hits = 0;
  misses = 0;

  /** `capacity`: entries per generation (so at most twice as many are held). */
  constructor(
    private readonly capacity: number,
    private readonly compute: (key: string) => V,
  ) {
    if (capacity < 1) throw new RangeError('a memo needs a capacity of at least 1');
  }

  get(key: string): V {
    let v = this.young.get(key);
    if (v !== undefined) {
      this.hits += 1;
      return v;
    }
    v = this.old.get(key);
    if (v !== undefined) this.hits += 1;
    else {
      this.misses += 1;
      v = this.compute(key);
      const bit = fnv1a(key) & (SEEN_BITS - 1);
      const mask = 1 << (bit & 7);
      if ((this.seen[bit >> 3]! & mask) === 0) {
        this.seen[bit >> 3]! |= mask;
        return v;
      }
    }
    if (this.young.size >= this.capacity) {
      this.old = this.young;
      this.young = new Map();
      // forget what was seen once: the filter would fill up and let everything in
      this.seen.fill(0);
    }
    this.young.set(key, v);
    return v;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
