// Tasks that any answer solves, for tests about keeping successes rather than finding them: shop
// price tasks of MiniArena that start on the product page and accept any non-N/A answer
// (must_include ""), so that an untrained policy succeeds in most episodes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/util/paths.js';

interface RawTask {
  task_id: number;
  start_url: string;
  eval: { eval_types: string[]; reference_answers?: unknown };
  miniarena: { template: string; evidence_urls: string[] };
}

/** Writes `count` such tasks (ids 0..count-1) to DIR/any-answer.json and returns the file. */
export function writeAnyAnswerTasks(dir: string, count = 4): string {
  const suite = JSON.parse(
    readFileSync(path.join(projectRoot, 'tasks', 'miniarena', 'train.json'), 'utf8'),
  ) as RawTask[];
  const tasks = suite
    .filter((t) => t.miniarena.template === 'shop_price' && t.miniarena.evidence_urls.length > 0)
    .slice(0, count)
    .map((t, i) => ({
      ...t,
      task_id: i,
      start_url: t.miniarena.evidence_urls[0],
      eval: { ...t.eval, reference_answers: { must_include: [''] } },
    }));
  const file = path.join(dir, 'any-answer.json');
  writeFileSync(file, JSON.stringify(tasks, null, 1));
  return file;
}

/** A tiny run: one env worker, short episodes, few updates, eval only after the last iteration. */
export function tinyRun(tasksFile: string, iterations: number): string[] {
  return [
    `iterations=${iterations}`,
    'rollout_size=4',
    'horizon_schedule=[5]',
    'eval_every=100',
    'eval_tasks=1',
    'eval_horizon=3',
    'min_updates=5',
    `tasks.train=${tasksFile}`,
    `tasks.test=${tasksFile}`,
  ];
}
