// The tasks a run draws from, as its suite says (src/suites): each split's task refs, validated at
// the start so that a broken task source stops the run there, and each task's label (template, tier)
// for the eval tables. The supervisor names no suite.
import type { Config } from '../../config/index.js';
import type { TaskRef } from '../../curriculum/index.js';
import type { Logger } from '../../log/index.js';
import type { TaskLabels } from '../../loop/index.js';
import { loadSuite } from '../../suites/index.js';

export interface RunTasks {
  trainTasks: TaskRef[];
  testTasks: TaskRef[];
  labels: TaskLabels;
}

/** The run's tasks; a split the run does not use (an eval of the other one) may be left empty. */
export async function runTasks(
  config: Config,
  wants: (split: 'train' | 'test') => boolean,
  log: Logger,
): Promise<RunTasks> {
  const suite = await loadSuite(config);
  const { train, test, labels, describe } = await suite.tasks(
    { config, log: { info: (m) => log.info(m), warn: (m) => log.warn(m) } },
    wants,
  );
  log.info(`tasks (${suite.name}): ${describe}`);
  return { trainTasks: train, testTasks: test, labels };
}
