// After an episode of a task that changes its sites (src/envs/tasks/site-claim.ts), the env worker
// puts those sites back through its suite's host (WebArena-Verified's env-ctrl) before it reports
// the episode: the supervisor keeps the sites held until the report (site-order.ts), so the next
// task on them starts on the first state. Each reset and its time are counted for status. A reset
// that fails marks the host unhealthy (host-health.ts): the worker takes no task until a retried
// reset goes through. Kept out of env-role.ts, which calls it in one line.
import { siteClaimOf, type Task } from '../../envs/index.js';
import type { SuiteHost } from '../../suites/index.js';
import type { HostHealth } from './host-health.js';

interface ResetContext {
  counters: Record<string, number>;
  log: { info(message: string): void; warn(message: string): void };
}

export async function resetChangedSites(
  host: Pick<SuiteHost, 'resetSites'>,
  task: Pick<Task, 'id' | 'sites' | 'eval'>,
  health: Pick<HostHealth, 'markDown'>,
  ctx: ResetContext,
): Promise<void> {
  const claim = siteClaimOf(task);
  const resetSites = host.resetSites;
  if (!claim.changes || claim.sites.length === 0 || resetSites === undefined) return;
  const count = (key: string, n = 1) => {
    ctx.counters[key] = (ctx.counters[key] ?? 0) + n;
  };
  const sites = claim.sites.join(', ');
  const reset = async (): Promise<string | null> => {
    const started = Date.now();
    let reset: readonly string[];
    try {
      reset = await resetSites(claim.sites);
    } catch (error) {
      count('resetFailures');
      return `reset of ${sites} failed: ${(error as Error).message}`;
    }
    if (reset.length === 0) return null;
    const ms = Date.now() - started;
    count('resets', reset.length);
    count('resetMs', ms);
    ctx.log.info(`task ${task.id} changed ${sites}: ${reset.join(', ')} reset in ${ms} ms`);
    return null;
  };
  const failed = await reset();
  if (failed !== null) {
    ctx.log.warn(`task ${task.id}: ${failed}`);
    health.markDown(failed, reset);
  }
}
