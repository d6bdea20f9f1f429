// What an iteration's collection searches did (collect.search: branch), for its metrics row: how
// often a success came after dead ends is how much an exploratory keep can add to what is kept.
import type { EpisodeResultMessage } from '../../protocol/index.js';

export interface CollectSearchSummary {
  searches: number;
  rollouts: number;
  successes: number;
  /** successes found by a later rollout than the first: dead ends came before them */
  successesAfterDeadEnds: number;
  /** GoBack steps the kept trajectories hold (collect.search_keep: exploratory) */
  goBacks: number;
}

/** What a collection's searches did, from the episodes' results; null when none searched. */
export function summarizeSearches(results: readonly EpisodeResultMessage[]): CollectSearchSummary | null {
  const searched = results.filter((r) => r.search !== undefined);
  if (searched.length === 0) return null;
  const won = searched.filter((r) => r.reward > 0);
  return {
    searches: searched.length,
    rollouts: searched.reduce((n, r) => n + r.search!.rollouts, 0),
    successes: won.length,
    successesAfterDeadEnds: won.filter((r) => r.search!.rollouts > 1).length,
    goBacks: searched.reduce((n, r) => n + (r.search!.goBacks ?? 0), 0),
  };
}
