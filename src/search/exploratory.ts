// ExACT's exploratory learning (`collect.search_keep: exploratory`): a successful search kept as
// the search itself went, not only as its success from the task's start. Every rollout follows the
// one before it: from the page where a rollout gave up, GoBack steps lead up to the last page it
// shares with the next rollout, which goes on from there. A rollout that ended (a wrong answer, an
// early stop) gives up on the page of its ending action, which is left out: the policy learns to
// go back from a dead end instead of ending on it. The GoBacks are a linearisation, as in ExACT:
// the search went back by a reset and a replay, and a page that changed a site is shown as it was.
//
// The way back from a dead end undoes each of its steps in turn, with what the caller says undoes
// it: a GoBack a navigation, the opposite scroll a scroll. A dead end with a step nothing undoes (a
// field typed in, a list opened: most of a MiniWoB++ page; a GoBack, which a further GoBack does not
// reverse) is left out of the trajectory, so no step in it claims to undo what it cannot.
import type { Observation } from '../envs/index.js';
import type { Taken } from './branch-search.js';
import { cellKey } from './cell-archive.js';

/** One rollout of a search, from the task's start (a replayed way back included). */
export interface Rollout {
  taken: readonly Taken[];
  /** the page the rollout stopped on without ending (its burst or the budget was spent); null: it ended */
  end: Observation | null;
}

/** One rollout as the trajectory holds it: the way back to it, then its own steps. */
interface Segment {
  steps: Taken[];
  /** the pages from the task's start to where the trajectory is after this segment */
  way: Observation[];
  /** the step taken on each page of `way` but the last, which led to the next */
  via: readonly Taken[];
}

/**
 * The rollouts as one trajectory, the last (the success) whole. `undo(page, policyVersion, done,
 * navigated)` is the step, in the run's action format, that goes back from `page` over `done`, the
 * step that reached it (`navigated`: it left the URL before), or null when nothing does: a GoBack
 * for a navigation, the opposite scroll for a scroll. A dead end with a step that cannot be undone
 * is left out.
 */
export function exploratorySteps(
  rollouts: readonly Rollout[],
  undo: (page: Observation, policyVersion: number, done: Taken, navigated: boolean) => Taken | null,
): Taken[] {
  const kept: Segment[] = [];
  rollouts.forEach((rollout, i) => {
    const last = i === rollouts.length - 1;
    const acted = last || rollout.end !== null ? rollout.taken : rollout.taken.slice(0, -1);
    if (acted.length === 0 && !last) return;
    const pages = acted.map((t) => t.observation);
    const deadEnd = last ? null : (rollout.end ?? rollout.taken.at(-1)?.observation ?? null);
    for (;;) {
      const way = kept.at(-1)?.way ?? [];
      // the last page both share: every rollout starts on the task's start page
      let shared = 1;
      while (
        shared < way.length &&
        shared < pages.length &&
        cellKey(way[shared]!) === cellKey(pages[shared]!)
      )
        shared++;
      // every step to go back over has a step that undoes it
      const version = kept.at(-1)?.steps.at(-1)?.policyVersion ?? acted[0]?.policyVersion ?? 0;
      const via = kept.at(-1)?.via ?? [];
      const steps: Taken[] = [];
      let undoable = true;
      for (let k = way.length - 1; k >= shared && undoable; k--) {
        const done = via[k - 1];
        const undone = done && undo(way[k]!, version, done, way[k]!.url !== way[k - 1]!.url);
        if (undone) steps.push(undone);
        else undoable = false;
      }
      if (!undoable) {
        // the dead end before cannot be gone back from: leave it out, and go on from the one before
        kept.pop();
        continue;
      }
      steps.push(...acted.slice(way.length > 0 ? shared - 1 : 0));
      kept.push({ steps, way: deadEnd === null ? pages : [...pages, deadEnd], via: acted });
      return;
    }
  });
  return kept.flatMap((s) => s.steps);
}
