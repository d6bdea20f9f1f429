// Bounds on what a page can stall: a step, a context's close.

export class StepTimeout extends Error {
  override name = 'StepTimeout';
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Closing a context whose renderer hangs can itself hang; never let that block the worker. */
export async function closeQuietly(context: { close(): Promise<void> }): Promise<void> {
  await withTimeout(context.close(), 10_000, 'closing the context').catch(() => {});
}
