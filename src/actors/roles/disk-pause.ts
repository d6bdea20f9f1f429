// A write that a full disk refuses (a checkpoint) is tried again each second instead of crashing
// the worker: its `paused` label says why ("learner: disk full at …"), status shows it, and the
// supervisor hands out no episodes meanwhile. The first write that fits ends the pause.
import { setTimeout as sleep } from 'node:timers/promises';
import { isOutOfSpace } from '../../util/index.js';
import type { RoleContext } from './worker-shell.js';

const RETRY_MS = 1000;

export async function untilWritten<T>(ctx: RoleContext, what: string, write: () => T): Promise<T> {
  for (;;) {
    try {
      const written = write();
      if (ctx.labels.paused !== undefined) {
        ctx.log.info(`${what} written: ${ctx.labels.paused} is over`);
        delete ctx.labels.paused;
      }
      return written;
    } catch (error) {
      if (!isOutOfSpace(error)) throw error;
      if (ctx.labels.paused === undefined) {
        const code = (error as NodeJS.ErrnoException).code ?? 'ENOSPC';
        ctx.labels.paused = `${ctx.role}: disk full at ${new Date().toISOString()} (${code} writing ${what})`;
        ctx.log.error(`${ctx.labels.paused}: tried again each second`);
      }
      await sleep(RETRY_MS);
    }
  }
}
