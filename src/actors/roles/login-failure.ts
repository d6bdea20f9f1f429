// An episode whose login failed (src/envs/browser/login.ts) is the site's fault, not the policy's:
// the env worker counts it, marks its host unhealthy (host-health.ts, as a failed reset does) with
// the login itself as the repair to retry, and gives the episode back for another worker; it is
// no episode result, so no policy failure. Kept out of env-role.ts, which calls it in one line.
import { type BrowserEnv, isLoginFailure, type Task } from '../../envs/index.js';
import type { HostHealth } from './host-health.js';

interface LoginContext {
  counters: Record<string, number>;
  log: { warn(message: string): void };
}

/** Why the episode's login failed (the host now marked unhealthy), or null when the error is another. */
export function loginFailed(
  error: unknown,
  /** the episode's task (asked only for a failed login: another error may be the task's own) */
  task: () => Task,
  env: Pick<BrowserEnv, 'checkLogin'>,
  health: Pick<HostHealth, 'markDown'>,
  ctx: LoginContext,
): string | null {
  if (!isLoginFailure(error)) return null;
  ctx.counters.loginFailures = (ctx.counters.loginFailures ?? 0) + 1;
  const reason = error.message;
  ctx.log.warn(`${reason}: the host takes no tasks until the login holds again`);
  const failed = task();
  health.markDown(reason, () => env.checkLogin(failed));
  return reason;
}
