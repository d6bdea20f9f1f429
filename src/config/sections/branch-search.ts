// Branch search while collecting (collect.search branch, src/search; issue 23): the episode, then
// rollouts that go back to pages found earlier and act from them, until a success or the budget.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

export const branchSearch = defineSection({
  name: 'branch-search',
  owner: 'src/search',
  about: 'search while collecting (collect.search branch): budget, bursts, which pages to go back to',
  keys: {
    collect: {
      /**
       * none: one episode per task assignment (TTI); branch: the episode, then rollouts that go back
       * to pages found earlier (a reset and a replay of the way there) and act from them, until a
       * success or the budget (src/search)
       */
      search: z.enum(['none', 'branch']).default('none'),
      /** env steps one search may spend on its task, replayed steps included */
      search_budget: PositiveInt.default(60),
      /** steps the policy acts from a page gone back to, before the search goes back again */
      search_burst: PositiveInt.default(5),
      /**
       * how a search draws the page to go back to: visits (Go-Explore's counts: seldom chosen, seldom
       * seen) or value (those weights times exp((V − best V) / search_value_temperature), V the
       * critic's estimate the inference worker sends with each action; train it with learner.algorithm
       * awr)
       */
      search_rank: z.enum(['visits', 'value']).default('visits'),
      search_value_temperature: z.number().positive().default(0.1),
    },
  },
});
