// The supervisor's own writes to the run directory (state.json, metrics.jsonl): one that a full
// disk refuses is held, in order, and tried again each second; meanwhile `why` says so ("run dir:
// disk full at …"), which pauses collection like a worker's `paused` label, and status shows it.
// The run goes on by itself once the writes fit again.
import type { Logger } from '../../log/index.js';
import { isOutOfSpace } from '../../util/index.js';

const RETRY_MS = 1000;

export class RunDirWrites {
  /** why the run directory cannot be written, null when it can */
  why: string | null = null;
  /** writes held for a retry, oldest first; a later write of the same file replaces a held one when it is a whole-file write */
  private readonly held: { what: string; whole: boolean; write: () => void }[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly log: Logger) {
    this.timer = setInterval(() => this.flush(), RETRY_MS);
    this.timer.unref();
  }

  /** Writes now, or holds the write when the disk is full. `whole`: it rewrites the file (a newer one replaces it). */
  write(what: string, whole: boolean, write: () => void): void {
    if (whole) {
      const older = this.held.findIndex((h) => h.what === what && h.whole);
      if (older >= 0) this.held.splice(older, 1);
    }
    this.held.push({ what, whole, write });
    this.flush();
  }

  /** Tries the held writes once more (at a stop). */
  close(): void {
    clearInterval(this.timer);
    this.flush();
  }

  private flush(): void {
    while (this.held.length > 0) {
      const next = this.held[0];
      if (next === undefined) break;
      try {
        next.write();
      } catch (error) {
        if (!isOutOfSpace(error)) throw error;
        if (this.why === null) {
          const code = (error as NodeJS.ErrnoException).code ?? 'ENOSPC';
          this.why = `run dir: disk full at ${new Date().toISOString()} (${code} writing ${next.what})`;
          this.log.error(`${this.why}: held, tried again each second`);
        }
        return;
      }
      this.held.shift();
    }
    if (this.why !== null) this.log.info(`run dir: writing again (${this.why} is over)`);
    this.why = null;
  }
}
