// Reused buffers for featurizing batch after batch (see features.ts).

/**
 * Grow-only buffers for featurizing batch after batch without allocating: a batch of 16 is ≈1 MB
 * of fresh typed arrays, whose allocation (outside V8's heap) and collection cost more than
 * filling them. A batch featurized into an arena is valid until the arena's next use.
 */
export class FeatureArena {
  private readonly floats = new Map<string, Float32Array>();
  private readonly ints = new Map<string, Int32Array>();

  /** n zeroed float32s. */
  f32(key: string, n: number): Float32Array {
    const b = this.floats.get(key);
    if (b && b.length >= n) return b.fill(0, 0, n).subarray(0, n);
    this.floats.set(key, new Float32Array(Math.ceil(n * 1.5)));
    return this.floats.get(key)!.subarray(0, n);
  }

  /** n zeroed int32s. */
  i32(key: string, n: number): Int32Array {
    const b = this.ints.get(key);
    if (b && b.length >= n) return b.fill(0, 0, n).subarray(0, n);
    this.ints.set(key, new Int32Array(Math.ceil(n * 1.5)));
    return this.ints.get(key)!.subarray(0, n);
  }
}
