// Dynamic batching for the inference worker: requests that arrive close together are answered by
// one forward pass. A batch closes when it holds `maxBatch` requests or `maxWaitMs` after its first
// request arrived, whichever comes first; the next batch starts only after the previous one is
// answered, which is also the only moment weights may be swapped.

export interface BatcherOptions {
  maxBatch: number;
  maxWaitMs: number;
}

export class DynamicBatcher<T> {
  private queue: T[] = [];
  private wake: (() => void) | null = null;
  private running = true;
  private readonly loop: Promise<void>;
  /** batch sizes seen, for stats */
  readonly sizes: number[] = [];

  constructor(
    private readonly options: BatcherOptions,
    private readonly handle: (batch: T[]) => Promise<void>,
    private readonly onError: (error: Error) => void,
  ) {
    if (options.maxBatch < 1) throw new RangeError('maxBatch must be at least 1');
    this.loop = this.run();
  }

  push(item: T): void {
    this.queue.push(item);
    this.wake?.();
  }

  get pending(): number {
    return this.queue.length;
  }

  private async next(): Promise<void> {
    if (this.queue.length > 0 || !this.running) return;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    this.wake = null;
  }

  private async run(): Promise<void> {
    while (this.running) {
      await this.next();
      if (!this.running) return;
      // Give stragglers until the deadline to join, unless the batch is already full.
      if (this.queue.length < this.options.maxBatch && this.options.maxWaitMs > 0) {
        const deadline = Date.now() + this.options.maxWaitMs;
        while (this.queue.length < this.options.maxBatch && this.running) {
          const left = deadline - Date.now();
          if (left <= 0) break;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.wake = null;
        }
      }
      const batch = this.queue.splice(0, this.options.maxBatch);
      if (batch.length === 0) continue;
      this.sizes.push(batch.length);
      if (this.sizes.length > 1000) this.sizes.splice(0, 500);
      try {
        await this.handle(batch);
      } catch (error) {
        this.onError(error as Error);
      }
      // Let timers run between batches: under a steady stream of requests the loop would otherwise
      // go from batch to batch on microtasks alone, and the worker's heartbeats would starve.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Stops taking batches; the one being handled finishes. */
  async close(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }
}
