// When to restart a dead worker, and when to give up (OTP's restart intensity and period).

export interface RestartPolicy {
  maxRestarts: number;
  windowMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
}

/** Restarts that fall inside the window ending at `now`. */
export function restartsInWindow(
  restartTimes: readonly number[],
  now: number,
  policy: RestartPolicy,
): number[] {
  return restartTimes.filter((t) => now - t < policy.windowMs);
}

/** More than `maxRestarts` restarts within the window: the run must stop. */
export function intensityExceeded(
  restartTimes: readonly number[],
  now: number,
  policy: RestartPolicy,
): boolean {
  return restartsInWindow(restartTimes, now, policy).length > policy.maxRestarts;
}

/** Exponential backoff on the restarts within the window: initial, 2×, 4×, … capped. */
export function backoffMs(recentRestarts: number, policy: RestartPolicy): number {
  if (recentRestarts <= 1) return policy.backoffInitialMs;
  return Math.min(policy.backoffMaxMs, policy.backoffInitialMs * 2 ** (recentRestarts - 1));
}
