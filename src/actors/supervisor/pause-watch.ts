// Why collection is paused, if it is: a worker that cannot write (replay on a full disk) says why
// in its `paused` label, and the supervisor's own held writes (run-dir-writes.ts) say theirs. No
// episode is handed out while one holds (task-loop.ts), and status shows the reason.
import type { Logger } from '../../log/index.js';
import type { WorkerSnapshot } from '../../protocol/index.js';

export class PauseWatch {
  why: string | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    snapshots: () => Promise<WorkerSnapshot[]>,
    ownWhy: () => string | null,
    log: Logger,
    publish: (kind: string, message: string) => void,
    everyMs = 500,
  ) {
    this.timer = setInterval(() => {
      void snapshots().then(
        (all) => {
          const why = all.map((w) => w.labels.paused).find((p) => p !== undefined) ?? ownWhy();
          const was = this.why;
          if (why !== null && was === null) log.warn(`collection paused: ${why}`);
          if (why === null && was !== null) log.info(`collection goes on (${was} is over)`);
          if (why !== was) publish(why === null ? 'resumed' : 'paused', why ?? `${was} is over`);
          this.why = why;
        },
        () => undefined,
      );
    }, everyMs);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }
}
