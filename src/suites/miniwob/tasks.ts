// Which MiniWoB++ episodes a run has: the configured tasks, each with its seeds. Test episodes use
// seeds 0…K-1 and training draws from a disjoint range, so no eval instance was trained on.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { MINIWOB_TASK_FILE_PREFIX, miniwobTaskId } from './task.js';

/** Training seeds start here; test seeds are 0…episodes-1 (far fewer than this). */
export const MINIWOB_TRAIN_SEED_BASE = 1_000_000;

export interface MiniwobSource {
  /** a served html/ folder */
  url: string | null;
  /** a local html/ folder tti serves itself */
  dir: string | null;
}

export class MiniwobSuiteError extends Error {
  override name = 'MiniwobSuiteError';
}

/** The pseudo task file of a source: names where the pages come from, in records and refs. */
export function miniwobTaskFile(source: MiniwobSource): string {
  return `${MINIWOB_TASK_FILE_PREFIX}${source.dir !== null ? path.resolve(source.dir) : source.url}`;
}

/** The task names of a local html/ folder: its miniwob/*.html pages. */
export function listMiniwobTasks(dir: string): string[] {
  const folder = path.join(path.resolve(dir), 'miniwob');
  if (!existsSync(folder)) {
    throw new MiniwobSuiteError(
      `env.miniwob.dir: ${path.resolve(dir)} has no miniwob/ folder; point it at MiniWoB++'s html/ folder (the one holding miniwob/ and core/)`,
    );
  }
  return readdirSync(folder)
    .filter((f) => f.endsWith('.html'))
    .map((f) => f.slice(0, -'.html'.length))
    .sort();
}

/** The configured task names, checked against the folder when there is one. */
export function resolveMiniwobTasks(source: MiniwobSource, tasks: readonly string[] | 'all'): string[] {
  if (source.dir === null && source.url === null)
    throw new MiniwobSuiteError(
      'env.suite is miniwob but neither env.miniwob.dir (a local html/ folder) nor env.miniwob.url (a served one) is set',
    );
  if (source.dir === null) {
    if (tasks === 'all')
      throw new MiniwobSuiteError(
        `env.miniwob.tasks: 'all' needs env.miniwob.dir (tti cannot list the folder behind ${source.url}); name the tasks`,
      );
    return [...tasks];
  }
  const known = listMiniwobTasks(source.dir);
  if (tasks === 'all') {
    if (known.length === 0)
      throw new MiniwobSuiteError(
        `env.miniwob.dir: no pages in ${path.join(path.resolve(source.dir), 'miniwob')}`,
      );
    return known;
  }
  const folder = path.join(path.resolve(source.dir), 'miniwob');
  for (const name of tasks) {
    if (!known.includes(name)) {
      const near = known.filter((k) => k.includes(name) || name.includes(k)).slice(0, 5);
      throw new MiniwobSuiteError(
        `env.miniwob.tasks: unknown task ${JSON.stringify(name)}: no ${name}.html in ${folder}` +
          (near.length > 0 ? ` (similar: ${near.join(', ')})` : ` (${known.length} tasks there)`),
      );
    }
  }
  return [...tasks];
}

/** Task ids of a split: test = seeds 0…episodes-1 of each task; train = `seeds` seeds from the train base. */
export function miniwobTaskIds(tasks: readonly string[], split: 'train' | 'test', seeds: number): string[] {
  const base = split === 'train' ? MINIWOB_TRAIN_SEED_BASE : 0;
  return tasks.flatMap((name) =>
    Array.from({ length: seeds }, (_, i) => miniwobTaskId({ name, seed: base + i })),
  );
}
