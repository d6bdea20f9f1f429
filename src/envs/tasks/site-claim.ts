// Which sites a task uses and whether it changes them: what the supervisor's task order
// (src/actors/supervisor/site-order.ts) and an env worker's reset after an episode go by. A task
// changes its sites when its verdict reads the sites' state after the episode (WebArena's
// `program_html`: the change is what is scored), or when a suite says so (WebArena-Verified's
// `mutate`, say, through `changes`).
import type { Task } from './task.js';

export interface SiteClaim {
  /** the sites the task's episode runs on (WebArena's `sites`) */
  sites: readonly string[];
  /** the episode may leave them changed: it holds them alone, and they are reset after it */
  changes: boolean;
}

/** Keyed by `labelKey(file, taskId)`, like the task labels. */
export type SiteClaims = Map<string, SiteClaim>;

export function siteClaimOf(
  task: Pick<Task, 'sites' | 'eval' | 'changesSites'>,
  changes?: boolean,
): SiteClaim {
  return {
    sites: task.sites,
    changes: changes ?? task.changesSites ?? task.eval?.eval_types.includes('program_html') === true,
  };
}
