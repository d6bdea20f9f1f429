// Whether an env worker's web host answers. A host that refuses connections or hangs makes the
// worker unhealthy: it takes no tasks (they go to the other workers), says so in its heartbeat,
// and probes again with exponential backoff until the host answers.
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

  /** Probes now; returns whether the host answers, updating what the worker reports. */
  async check(): Promise<boolean> {
    const reason = await probeOrigins(this.origins());
    this.checkedAt = Date.now();
    if (reason === null) {
      if (this.down !== null) {
        this.log(`web host answers again after ${Math.round((Date.now() - this.down.since) / 1000)} s`);
        this.down = null;
        this.report(false, 'ok');
      }
      return true;
    }
    const failures = (this.down?.failures ?? 0) + 1;
    if (this.down === null) this.log(`web host unreachable (${reason}): taking no tasks until it answers`);
    this.down = { since: this.down?.since ?? Date.now(), reason, failures };
    this.report(true, `unreachable since ${new Date(this.down.since).toISOString()}: ${reason}`);
    return false;
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
