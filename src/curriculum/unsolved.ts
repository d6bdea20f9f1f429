// Unsolved-first sampling (after prioritized level replay, Jiang et al. 2021, with "still failing"
// as the priority): a training task group is drawn ∝ 1 − p of its recent success rate. Filtered BC
// learns only from successes, and a group the policy already solves yields successes that teach it
// nothing new, while a group it rarely solves is where a greedy test episode is lost: this spends
// collection there. Rates are recent, not cumulative: each iteration halves the old counts before
// adding the new outcomes, so a group the policy has just learned stops being drawn often. A
// group never tried counts as p = ½; a floor keeps solved groups in the draw, so forgetting shows.
import { type GroupRecord, type GroupRecords, successRate } from './learnability.js';

export const UNSOLVED_FLOOR = 0.05;
/** how much of the earlier counts an iteration keeps */
export const UNSOLVED_DECAY = 0.5;

export function unsolvedWeight(record: GroupRecord | undefined): number {
  return Math.max(1 - successRate(record), UNSOLVED_FLOOR);
}

/** Ages the records by one iteration (before the iteration's outcomes are added). */
export function decayOutcomes(records: GroupRecords, keep = UNSOLVED_DECAY): void {
  for (const r of Object.values(records)) {
    r.attempts *= keep;
    r.successes *= keep;
  }
}
