// Filtered BC imitates every step of a kept trajectory, its detours too: a first success that
// went shop home → account → home → a category → search teaches the greedy policy to open every
// shop task with that tour (run qJ, experiments/old-suite). A detour is a run of steps that leaves a page
// and comes back to it without changing anything — link clicks, going back, scrolling, hovering,
// searching — so the steps after it could have been taken before it. Cutting it gives the
// trajectory the agent would have had without it: the same observations at the page it returned
// to, an action history without the detour, and step numbers counted again.
// Not the learner's yet: experiments/retrain (`'{"cutDetours":true}'`) retrained on run qJ's kept
// trajectories (159 of 433 steps cut) solved 23/294 test tasks against 28/294 without cutting; on
// qH's (82 of 563 cut) 39 against 37.
import { actionOfReply } from './candidates.js';
import type { TrajectoryForTraining } from './types.js';

type Step = TrajectoryForTraining['steps'][number];

const ELEMENT = /^(Click|Hover|Type) \[(\d+)\]/;

/** An action that leaves the sites' state as it was (it may change the page shown). */
export function leavesStateAlone(step: Step): boolean {
  const action = actionOfReply(step.reply);
  if (action === 'GoBack' || action.startsWith('Scroll [')) return true;
  const m = ELEMENT.exec(action);
  if (!m) return false;
  const at = step.nodes.ids.indexOf(Number(m[2]));
  const role = at >= 0 ? step.nodes.roles[at] : undefined;
  if (m[1] === 'Hover') return true;
  // A link is a GET; a search box submits a GET query. Buttons and other fields may change things.
  if (m[1] === 'Click') return role === 'link';
  return role === 'searchbox';
}

/** The URL a step observed, without its fragment (scrolling to an anchor is the same page). */
export function pageOf(step: Step): string {
  const at = step.url.indexOf('#');
  return at >= 0 ? step.url.slice(0, at) : step.url;
}

/**
 * Whether the trajectory goes back from `page` before it leaves it some other way: without the
 * detour, "back" would lead elsewhere (to the page before the detour, not its last page).
 */
function goesBackBeforeLeaving(steps: readonly Step[], from: number, page: string): boolean {
  for (let m = from; m < steps.length && pageOf(steps[m]!) === page; m++)
    if (actionOfReply(steps[m]!.reply) === 'GoBack') return true;
  return false;
}

/**
 * The trajectory without its detours: from each step, the farthest later step back on the same
 * page that is reached only through state-preserving steps that left the page on the way is
 * jumped to. `cut` counts the steps removed.
 */
export function withoutDetours(trajectory: TrajectoryForTraining): {
  trajectory: TrajectoryForTraining;
  cut: number;
} {
  const { steps } = trajectory;
  const kept: Step[] = [];
  let i = 0;
  while (i < steps.length) {
    const page = pageOf(steps[i]!);
    let back = -1;
    let left = false;
    for (let k = i; k + 1 < steps.length && leavesStateAlone(steps[k]!); k++) {
      const next = pageOf(steps[k + 1]!);
      if (next !== page) left = true;
      else if (left && !goesBackBeforeLeaving(steps, k + 1, page)) back = k + 1;
    }
    if (back > i) {
      i = back;
      continue;
    }
    kept.push(steps[i]!);
    i += 1;
  }
  return { trajectory: { ...trajectory, steps: kept }, cut: steps.length - kept.length };
}
