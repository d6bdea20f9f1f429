// A seeded random stream whose state can be saved and restored, so that a resumed run draws the
// same tasks it would have drawn (mulberry32: 32 bits of state, plenty for sampling).

/**
 * One 32-bit seed from several numbers (a run's seed, an iteration, an episode, a step), well mixed
 * (murmur3's finaliser after each part), so nearby inputs give unrelated streams.
 */
export function mixSeeds(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export class SeededRandom {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next = (): number => {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  get state(): number {
    return this.s;
  }

  set state(value: number) {
    this.s = value >>> 0;
  }

  /** A fixed-size sample without replacement, in a seeded order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out.slice(0, Math.max(0, Math.min(k, out.length)));
  }
}
