// The oracle's solve of one task with every acting step shown to a watcher: the page it acted on,
// the action and what followed. What records demonstrations and replayable episodes is built on it.
import type { Action, BrowserEnv, Observation, StepResult } from '../../envs/index.js';
import type { MiniArenaTask } from '../templates/types.js';
import { Driver } from './driver.js';
import { SOLVERS } from './solvers/index.js';
import type { OracleTask } from './types.js';

export function toOracleTask(t: MiniArenaTask): OracleTask {
  return {
    taskId: String(t.task_id),
    template: t.miniarena.template,
    intent: t.intent,
    dict: t.instantiation_dict,
  };
}

/**
 * Runs the template's solver on `env` from `first` (the task's first page, after the caller's
 * resets); `watch` sees each action but `wait` before it is taken. Returns the driver (its result
 * is the episode's end, null when the solver stopped without one).
 */
export async function watchedSolve(
  env: BrowserEnv,
  first: Observation,
  raw: MiniArenaTask,
  watch: (action: Action, page: Observation, result: StepResult) => void,
): Promise<Driver> {
  const solver = SOLVERS[raw.miniarena.template];
  if (!solver) throw new Error(`no oracle solver for template ${raw.miniarena.template}`);
  let page = first;
  // The driver only calls step(): a view of the env whose step shows each action to the watcher.
  const watched = Object.create(env) as BrowserEnv;
  watched.step = async (action: Action | string) => {
    if (typeof action === 'string') throw new Error('the oracle acts with parsed actions');
    const result = await env.step(action);
    if (action.type !== 'wait') watch(action, page, result);
    if (result.observation) page = result.observation;
    return result;
  };
  const driver = new Driver(watched, first);
  await solver(driver, toOracleTask(raw));
  return driver;
}
