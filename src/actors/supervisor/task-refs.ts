// The tasks a run draws from: its train and test task files (MiniArena's by default), validated at
// the start so that a broken file stops the run there, or MiniWoB++'s tasks with their seeds; and
// each task's label (template, tier) for the eval tables.
import path from 'node:path';
import type { Config } from '../../config/index.js';
import type { TaskRef } from '../../curriculum/index.js';
import { formatTaskIssue, validateTaskFile } from '../../envs/index.js';
import { miniwobTaskFile, miniwobTaskIds, resolveMiniwobTasks } from '../../envs/miniwob/index.js';
import type { Logger } from '../../log/index.js';
import { projectRoot } from '../../util/index.js';
import { labelKey, readTaskLabels, type TaskLabels } from './eval-summary.js';

const DEFAULT_TASKS = {
  train: path.join(projectRoot, 'tasks', 'miniarena', 'train.json'),
  test: path.join(projectRoot, 'tasks', 'miniarena', 'test.json'),
};

/** Task ids of a task file, validated now so that a broken file stops the run at its start. */
function loadTaskRefs(file: string): TaskRef[] {
  const absolute = path.resolve(file);
  const report = validateTaskFile(absolute);
  if (report.issues.length > 0) {
    const shown = report.issues.slice(0, 5).map((issue) => `  - ${formatTaskIssue(issue)}`);
    const more = report.issues.length > 5 ? `\n  (+${report.issues.length - 5} more)` : '';
    throw new Error(
      `task file ${absolute} has ${report.issues.length} error(s):\n${shown.join('\n')}${more}`,
    );
  }
  return report.tasks.map((task) => ({ file: absolute, id: task.id }));
}

/** MiniWoB++ episodes: each configured task with its train or test seeds, labelled by task name. */
function miniwobTaskRefs(
  config: Config,
  labels: TaskLabels,
): { file: string; names: string[]; train: TaskRef[]; test: TaskRef[] } {
  const m = config.env.miniwob;
  const source = { url: m.url, dir: m.dir };
  const names = resolveMiniwobTasks(source, m.tasks);
  const file = miniwobTaskFile(source);
  const refs = (split: 'train' | 'test', seeds: number): TaskRef[] =>
    miniwobTaskIds(names, split, seeds).map((id) => {
      labels.set(labelKey(file, id), { template: id.replace(/@\d+$/, ''), tier: null });
      return { file, id };
    });
  return { file, names, train: refs('train', m.train_seeds), test: refs('test', m.eval_episodes) };
}

export interface RunTasks {
  trainTasks: TaskRef[];
  testTasks: TaskRef[];
  labels: TaskLabels;
}

/** The run's tasks; a split the run does not use (an eval of the other one) is not loaded. */
export function runTasks(config: Config, wants: (split: 'train' | 'test') => boolean, log: Logger): RunTasks {
  const trainFile = path.resolve(config.tasks.train ?? DEFAULT_TASKS.train);
  const testFile = path.resolve(config.tasks.test ?? DEFAULT_TASKS.test);
  const labels: TaskLabels = new Map();
  const taskRefs = (file: string): TaskRef[] => {
    const refs = loadTaskRefs(file);
    readTaskLabels(file, labels);
    return refs;
  };
  const miniwob = config.env.suite === 'miniwob' ? miniwobTaskRefs(config, labels) : null;
  const trainTasks = miniwob ? miniwob.train : wants('train') ? taskRefs(trainFile) : [];
  const testTasks = miniwob ? miniwob.test : wants('test') ? taskRefs(testFile) : [];
  if (miniwob) log.info(`tasks: MiniWoB++ ${miniwob.names.join(', ')} from ${miniwob.file}`);
  log.info(
    `tasks: ${trainTasks.length} train from ${miniwob?.file ?? trainFile}, ${testTasks.length} test from ${miniwob?.file ?? testFile}`,
  );
  return { trainTasks, testTasks, labels };
}
