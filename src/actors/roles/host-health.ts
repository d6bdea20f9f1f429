// Whether an env worker's web host answers. A host that refuses connections or hangs makes the
// worker unhealthy: it takes no tasks (they go to the other workers), says so in its heartbeat,
// and probes again with exponential backoff until the host answers. A failed site reset (or a
// failed login) makes it unhealthy the same way (`markDown`), and what is tried again then is the
// repair itself (the reset), not the probe: a host that answers but was not put back is not well.
import { setTimeout as sleep } from 'node:timers/promises';

const PROBE_TIMEOUT_MS = 5000;
const BACKOFF_INITIAL_MS = 1000;
const BACKOFF_MAX_MS = 30000;

/** Null when every origin answers (any HTTP status will do), else why one does not. */
export async function probeOrigins(
  origins: readonly string[],
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<string | null> {
  for (const origin of origins) {
    try {
      const response = await fetch(origin, {
        method: 'GET',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const why =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : (cause ?? (error as Error).message);
      return `${origin}: ${why}`;
    }
  }
  return null;
}

export class HostHealth {
  private down: { since: number; reason: string; failures: number } | null = null;
  /** while down for a failed reset or login: what to try again instead of the probe (null: it worked) */
  private repair: (() => Promise<string | null>) | null = null;

  constructor(
    private readonly origins: () => readonly string[],
    /** what the worker reports: counters.hostDown and labels.host */
    private readonly report: (down: boolean, label: string) => void,
    private readonly log: (message: string) => void,
  ) {
    report(false, 'ok');
  }

  private checkedAt = 0;

  get healthy(): boolean {
    return this.down === null;
  }

  /** Probes when the last probe is older than `maxAgeMs` (a cheap check before each task). */
  async recheck(maxAgeMs: number): Promise<boolean> {
    return Date.now() - this.checkedAt < maxAgeMs ? this.healthy : this.check();
  }

  /**
   * The host is not fit for tasks (`reason`: a reset or a login that failed) until `repair`, tried
   * again with the same backoff, resolves null.
   */
  markDown(reason: string, repair: () => Promise<string | null>): void {
    this.repair = repair;
    this.fail(reason, 'unhealthy');
  }

  /** Probes now (or retries the repair); returns whether the host is fit, updating what the worker reports. */
  async check(): Promise<boolean> {
    const repair = this.repair;
    const reason =
      repair === null ? await probeOrigins(this.origins()) : await repair().catch((e: Error) => e.message);
    this.checkedAt = Date.now();
    if (reason === null) this.repair = null;
    if (reason === null) {
      if (this.down !== null) {
        this.log(`web host answers again after ${Math.round((Date.now() - this.down.since) / 1000)} s`);
        this.down = null;
        this.report(false, 'ok');
      }
      return true;
    }
    this.fail(reason, repair === null ? 'unreachable' : 'unhealthy');
    return false;
  }

  private fail(reason: string, kind: 'unreachable' | 'unhealthy'): void {
    const failures = (this.down?.failures ?? 0) + 1;
    if (this.down === null) this.log(`web host ${kind} (${reason}): taking no tasks until it is well again`);
    this.down = { since: this.down?.since ?? Date.now(), reason, failures };
    this.report(true, `${kind} since ${new Date(this.down.since).toISOString()}: ${reason}`);
  }

  /** While unhealthy: wait out the backoff (stopping early when `going` turns false), then probe. */
  async waitUntilHealthy(going: () => boolean): Promise<void> {
    while (this.down !== null && going()) {
      const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** (this.down.failures - 1));
      for (const end = Date.now() + wait; Date.now() < end && going(); )
        await sleep(Math.min(250, end - Date.now()));
      if (going()) await this.check();
    }
  }
}
