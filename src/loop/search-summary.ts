// What an iteration's collection searches did (collect.search: branch), for its metrics row: how
// often a success came after dead ends is what going back found that episodes from the start miss.
import type { EpisodeOutcome } from './episode.js';

export interface CollectSearchSummary {
  searches: number;
  rollouts: number;
  successes: number;
  /** successes found by a later rollout than the first: dead ends came before them */
  successesAfterDeadEnds: number;
}

/** What a collection's searches did, from the episodes' results; null when none searched. */
export function summarizeSearches(results: readonly EpisodeOutcome[]): CollectSearchSummary | null {
  const searched = results.filter((r) => r.search !== undefined);
  if (searched.length === 0) return null;
  const won = searched.filter((r) => r.reward > 0);
  return {
    searches: searched.length,
    rollouts: searched.reduce((n, r) => n + r.search!.rollouts, 0),
    successes: won.length,
    successesAfterDeadEnds: won.filter((r) => r.search!.rollouts > 1).length,
  };
}
