// Going back to an earlier state of an episode (issue 23's first part, what search builds on): the
// same task on a freshly reset host, then the episode's first actions again. The browser numbers
// elements anew on every load, so a recorded action names its element by role, name and rank
// among the elements so named, and each replayed step finds it on the page it reaches. A host that
// resets to the same state (MiniArena, a MiniWoB++ page with its seed) comes back to the same page;
// where an element is gone, the replay stops and says at which step.
import type { Action } from './actions/types.js';
import type { BrowserEnv } from './browser-env.js';
import type { ResetOptions } from './env-config.js';
import type { ObservationNode } from './observation/ax-tree.js';
import type { Observation } from './observation/observe.js';
import type { Task } from './tasks/task.js';

/** An element as a later load of the same page can find it again. */
export interface ElementKey {
  role: string;
  name: string;
  /** 0 for the first element of this role and name in page order, 1 for the second, … */
  rank: number;
}

/** One step of an episode as it can be replayed: the action and the element it acted on. */
export interface ReplayStep {
  /** the action as the env ran it (parsed, so the replay does not depend on the reply format) */
  action: Action;
  /** its element, found on the page the action was taken on; null for an action without one */
  element: ElementKey | null;
}

const elementIdOf = (action: Action): string | undefined =>
  'elementId' in action ? action.elementId : undefined;

/** The action with its element named as an `ElementKey` (from the page it was taken on). */
export function replayStepOf(action: Action, nodes: readonly ObservationNode[]): ReplayStep {
  const id = elementIdOf(action);
  if (id === undefined) return { action, element: null };
  const i = nodes.findIndex((n) => n.id === id);
  if (i < 0) return { action, element: null };
  const { role, name } = nodes[i]!;
  let rank = 0;
  for (let j = 0; j < i; j++) if (nodes[j]!.role === role && nodes[j]!.name === name) rank++;
  return { action, element: { role, name, rank } };
}

/** The step's action with its element's id on this page, or null when the page has no such element. */
export function actionOnPage(step: ReplayStep, nodes: readonly ObservationNode[]): Action | null {
  if (step.element === null || elementIdOf(step.action) === undefined) return step.action;
  const { role, name, rank } = step.element;
  let seen = 0;
  for (const n of nodes) {
    if (n.role !== role || n.name !== name) continue;
    if (seen++ === rank) return { ...step.action, elementId: n.id } as Action;
  }
  return null;
}

export interface ReplayResult {
  /** the page after the replayed steps (null when the episode ended during the replay) */
  observation: Observation | null;
  /** steps replayed */
  replayed: number;
  /** the first step that could not be replayed, and why; null when all were */
  diverged: { step: number; why: string } | null;
}

/**
 * Resets `env` to `task` and replays `steps`. The caller resets the host first (the suite's
 * per-episode reset), as before any episode: replaying on a host in another state is not going back.
 */
export async function replayPrefix(
  env: BrowserEnv,
  task: Task,
  steps: readonly ReplayStep[],
  options: ResetOptions = {},
): Promise<ReplayResult> {
  let observation: Observation | null = await env.reset(task, options);
  for (const [k, step] of steps.entries()) {
    if (observation === null)
      return { observation, replayed: k, diverged: { step: k, why: 'the episode ended' } };
    const action = actionOnPage(step, observation.nodes);
    if (action === null) {
      const e = step.element!;
      return {
        observation,
        replayed: k,
        diverged: {
          step: k,
          why: `no ${e.role} ${JSON.stringify(e.name)} #${e.rank + 1} on ${observation.url}`,
        },
      };
    }
    const result = await env.step(action);
    observation = result.observation;
    if (result.done && k < steps.length - 1)
      return { observation, replayed: k + 1, diverged: { step: k + 1, why: 'the episode ended' } };
  }
  return { observation, replayed: steps.length, diverged: null };
}
