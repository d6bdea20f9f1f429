// An episode run as a search over its rollouts (src/search/branch-search.ts): each rollout after
// the first starts on a freshly reset host under its own id, and goes back to a page found
// earlier. Collection's branch search and test-time search both run it, with their own budget,
// pick and acting; what the search did is counted here, under the same names for both.
import type { Observation } from '../envs/index.js';
import {
  type BranchSearchOptions,
  branchSearch,
  type CellRank,
  type Decision,
  type Taken,
} from '../search/index.js';
import { mixSeeds, SeededRandom } from '../util/index.js';
import type { Episode, Outcome } from './strategy.js';

/** The counters every search keeps, in words. */
export const SEARCH_METRICS = {
  searchRollouts: 'rollouts',
  searchCells: 'pages found',
  searchDiverged: 'ways back that diverged',
  searchSuccesses: 'successes',
  searchSuccessesAfterDeadEnds: 'successes after dead ends',
} as const;

/** What a search adds to its episode's result, in words (an iteration's row sums and maxes them). */
export const SEARCH_EXTRAS = {
  rollouts: 'rollouts',
  cells: 'pages found',
  envSteps: 'env steps, replayed ones included',
  diverged: 'ways back that diverged',
  deepest: 'the longest way to a page, in steps',
  bestValue: "the critic's highest estimate on a page reached",
  finished: 'rollouts that ended within the budget',
  successAfterDeadEnds: 'a success found after a failed rollout (1) or not (0)',
} as const;

export interface RolloutSearch {
  budget: number;
  pick: NonNullable<BranchSearchOptions['pick']>;
  /** the action on `page` in rollout `rollout`, not one of `avoid` while another is left */
  act(
    page: Observation,
    taken: readonly Taken[],
    rollout: number,
    avoid: ReadonlySet<string> | undefined,
  ): Promise<Decision>;
}

/** How cells are drawn (collect.search_rank). */
function rankOf(collect: Episode['config']['collect']): CellRank {
  if (collect.search_rank === 'value') return { by: 'value', temperature: collect.search_value_temperature };
  return { by: 'visits' };
}

export async function searchRollouts(episode: Episode, o: RolloutSearch): Promise<Outcome> {
  const { assignment, config, labels } = episode;
  const { collect } = config;
  let rollout = 0;
  const searched = await branchSearch({
    budget: o.budget,
    burst: collect.search_burst,
    horizon: assignment.horizon,
    rank: rankOf(collect),
    pick: o.pick,
    random: new SeededRandom(mixSeeds(assignment.seed, 0x5ea5c4)).next,
    start: async (k) => {
      rollout = k;
      return episode.start(k);
    },
    step: (action, policyVersion) => episode.step(action, policyVersion),
    act: (page, taken, avoid) => o.act(page, taken, rollout, avoid),
    onRollout: (s) => {
      labels.search =
        `${s.rollouts} rollouts, ${s.cells} pages, depth ${s.deepest}` +
        (s.bestValue === null ? '' : `, best value ${s.bestValue.toFixed(2)}`);
    },
  });
  delete labels.search;
  episode.count('searchRollouts', searched.stats.rollouts);
  episode.count('searchCells', searched.stats.cells);
  episode.count('searchDiverged', searched.stats.diverged);
  // What the search left unfinished goes; the last finished rollout is what it reports.
  await episode.env.abandon();
  // how often a success came after dead ends: what episodes from the start would have missed
  const afterDeadEnds = searched.success && searched.stats.rollouts > 1;
  if (searched.success) episode.count('searchSuccesses');
  if (afterDeadEnds) episode.count('searchSuccessesAfterDeadEnds');
  const extras: Record<keyof typeof SEARCH_EXTRAS, number | null> = {
    ...searched.stats,
    successAfterDeadEnds: afterDeadEnds ? 1 : 0,
  };
  return { record: searched.record, taken: searched.taken, envSteps: searched.stats.envSteps, extras };
}
