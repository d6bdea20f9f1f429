// The tasks a run draws from, as its suite says (src/suites): each split's task refs, validated at
// the start so that a broken task source stops the run there, and each task's label (template, tier)
// for the eval tables. The supervisor names no suite.
import type { Config } from '../../config/index.js';
import type { TaskRef } from '../../curriculum/index.js';
import { labelKey, type SiteClaim } from '../../envs/index.js';
import type { Logger } from '../../log/index.js';
import type { TaskLabels } from '../../loop/index.js';
import { loadSuite } from '../../suites/index.js';

export interface RunTasks {
  trainTasks: TaskRef[];
  testTasks: TaskRef[];
  labels: TaskLabels;
  /** the sites an episode's task holds (src/actors/supervisor/site-order.ts); absent: none */
  claimOf?: (episode: { taskFile: string; taskId: string }) => SiteClaim | null;
}

/** The run's tasks; a split the run does not use (an eval of the other one) may be left empty. */
export async function runTasks(
  config: Config,
  wants: (split: 'train' | 'test') => boolean,
  log: Logger,
): Promise<RunTasks> {
  const suite = await loadSuite(config);
  const { train, test, labels, describe, claims } = await suite.tasks(
    { config, log: { info: (m) => log.info(m), warn: (m) => log.warn(m) } },
    wants,
  );
  log.info(`tasks (${suite.name}): ${describe}`);
  if (claims === undefined || claims.size === 0) return { trainTasks: train, testTasks: test, labels };
  const changing = [...claims.values()].filter((c) => c.changes).length;
  log.info(`task order: ${changing} of ${claims.size} tasks change their sites and hold them alone`);
  return {
    trainTasks: train,
    testTasks: test,
    labels,
    claimOf: (e) => claims.get(labelKey(e.taskFile, e.taskId)) ?? null,
  };
}
