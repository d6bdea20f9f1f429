// What the suites that read task files share (WebArena's raw JSON, TTI's jsonl, WebVoyager's
// jsonl, MiniArena's files): the refs of each split, checked when the run starts so that a broken
// file stops it there, the tasks' labels, and each worker's tasks loaded with its own hosts.
import path from 'node:path';
import {
  formatTaskIssue,
  labelKey,
  loadTaskFile,
  NO_LABEL,
  readTaskLabels,
  type SiteClaims,
  siteClaimOf,
  type Task,
  type TaskLabel,
  type TaskLabels,
  type TaskLoadOptions,
  validateTaskFile,
} from '../envs/index.js';
import type { Split, SuiteTasks, TaskRef } from './suite.js';

/** The tasks of a task file, validated now so that a broken file stops the run at its start. */
function validatedTasks(file: string): Task[] {
  const report = validateTaskFile(file);
  if (report.issues.length > 0) {
    const shown = report.issues.slice(0, 5).map((issue) => `  - ${formatTaskIssue(issue)}`);
    const more = report.issues.length > 5 ? `\n  (+${report.issues.length - 5} more)` : '';
    throw new Error(`task file ${file} has ${report.issues.length} error(s):\n${shown.join('\n')}${more}`);
  }
  return report.tasks;
}

/**
 * The refs and labels of a train and a test file; a split the run does not use is not read.
 * `shared`: every env worker runs on the same hosts, so each task's site claim goes with it.
 */
export function taskFileTasks(
  files: { train: string; test: string },
  wants: (split: Split) => boolean,
  shared = false,
): SuiteTasks {
  const labels: TaskLabels = new Map();
  const claims: SiteClaims = new Map();
  const refs = (split: Split): TaskRef[] => {
    if (!wants(split)) return [];
    const file = path.resolve(files[split]);
    const tasks = validatedTasks(file);
    readTaskLabels(file, labels);
    if (shared) for (const t of tasks) claims.set(labelKey(file, t.id), siteClaimOf(t));
    return tasks.map((t) => ({ file, id: t.id }));
  };
  const train = refs('train');
  const test = refs('test');
  const describe = `${train.length} train from ${path.resolve(files.train)}, ${test.length} test from ${path.resolve(files.test)}`;
  return { train, test, labels, describe, ...(shared ? { claims } : {}) };
}

/** The configured task files, or an error naming the keys a suite needs. */
export function configuredFiles(
  tasks: { train: string | null; test: string | null },
  suite: string,
): { train: string; test: string } {
  const train = tasks.train ?? tasks.test;
  const test = tasks.test ?? tasks.train;
  if (train === null || test === null)
    throw new Error(`env.suite ${suite} reads task files: set tasks.train and tasks.test (or one of them)`);
  return { train, test };
}

/** One worker's tasks, each file loaded once with the worker's hosts and login folder. */
export class TaskFiles {
  private readonly byFile = new Map<string, Map<string, Task>>();
  private readonly labels: TaskLabels = new Map();

  constructor(private readonly options: TaskLoadOptions) {}

  task(ref: TaskRef): { task: Task; label: TaskLabel } {
    let byId = this.byFile.get(ref.file);
    if (byId === undefined) {
      byId = new Map(loadTaskFile(ref.file, this.options).map((t) => [t.id, t]));
      readTaskLabels(ref.file, this.labels);
      this.byFile.set(ref.file, byId);
    }
    const task = byId.get(ref.id);
    if (task === undefined) throw new Error(`no task ${ref.id} in ${ref.file}`);
    return { task, label: this.labels.get(labelKey(ref.file, task.id)) ?? NO_LABEL };
  }
}

/** WebArena's ports on one host, as TTI's `webarena_host` names it. */
export function webArenaHosts(host: string): Record<string, string> {
  const base = /^https?:\/\//.test(host) ? host.replace(/\/$/, '') : `http://${host}`;
  return {
    __SHOPPING__: `${base}:7770`,
    __SHOPPING_ADMIN__: `${base}:7780/admin`,
    __REDDIT__: `${base}:9999`,
    __GITLAB__: `${base}:8023`,
    __MAP__: `${base}:3000`,
    __WIKIPEDIA__: `${base}:8888`,
  };
}
