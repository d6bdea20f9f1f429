// At most `limit` tasks at once, the rest waiting in arrival order: how the inference worker keeps a
// chat endpoint busy without flooding it (vLLM batches the requests in flight on its side).

export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private idle: (() => void) | null = null;

  constructor(readonly limit: number) {
    if (limit < 1) throw new RangeError('limit must be at least 1');
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      const next = this.waiting.shift();
      if (next) next();
      else if (this.active === 0) this.idle?.();
    }
  }

  /** Resolves once nothing runs or waits. */
  async drained(): Promise<void> {
    while (this.active > 0 || this.waiting.length > 0)
      await new Promise<void>((resolve) => {
        this.idle = resolve;
      });
  }
}
