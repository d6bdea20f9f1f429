// Branch search while collecting (`collect.search: branch`, src/search/branch-search.ts): the
// episode's budget of env steps goes to rollouts that go back to pages found earlier, and the
// first success ends it. The policy acts as in a plain episode (a stop probe's decision first).
import type { Config } from '../config/index.js';
import { SEARCH_EXTRAS, SEARCH_METRICS, type Strategy, searchRollouts } from '../episode/index.js';

export function branchSearch(config: Config): Strategy {
  const { collect } = config;
  return {
    name: 'search',
    metrics: SEARCH_METRICS,
    extras: SEARCH_EXTRAS,
    takesPart: (assignment) => collect.search === 'branch' && !assignment.greedy,
    run: (episode) =>
      searchRollouts(episode, {
        budget: collect.search_budget,
        pick: 'success',
        act: (page, taken, rollout, avoid) =>
          episode.act(page, taken, { rollout, ...(avoid ? { avoid } : {}) }),
      }),
  };
}
