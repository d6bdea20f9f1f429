// Branch search while collecting (collect.search branch, src/search; issue 23): the episode, then
// rollouts that go back to pages found earlier and act from them, until a success or the budget.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

interface View {
  collect: { search: string; search_keep: string };
  env: { suite: string; miniwob: { offer_navigation: boolean } };
}

export const branchSearch = defineSection({
  name: 'branch-search',
  owner: 'src/search',
  about:
    'search while collecting (collect.search branch): budget, bursts, which pages to go back to, what to keep',
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
      /**
       * what a successful search keeps: from_start (its success from the task's start: TTI's
       * filtered BC) or exploratory (ExACT's exploratory learning: every rollout in the order taken,
       * dead ends included, with GoBack steps from each up to where the next went on;
       * src/search/exploratory.ts). Needs collect.search branch and a suite that offers navigation
       */
      search_keep: z.enum(['from_start', 'exploratory']).default('from_start'),
      /** steps the policy acts from a page gone back to, before the search goes back again */
      search_burst: PositiveInt.default(5),
      /**
       * how a search draws the page to go back to: visits (Go-Explore's counts: seldom chosen, seldom
       * seen), value (those weights times exp((V − best V) / search_value_temperature), V the
       * critic's estimate the inference worker sends with each action; train it with learner.algorithm
       * awr) or progress (the same with P, the share of the task's content words the way there acted
       * on or typed plus the share the page shows, 0–2: needs no training; temperature
       * search_progress_temperature)
       */
      search_rank: z.enum(['visits', 'value', 'progress']).default('visits'),
      search_value_temperature: z.number().positive().default(0.1),
      search_progress_temperature: z.number().positive().default(0.1),
      /**
       * Go back to a page whose way there sent only safe requests (GET, HEAD, OPTIONS) with one
       * goto to its URL on the reset host, not a replay of the whole way: one env step instead of
       * the way's length. Checked on arrival (a page whose URL does not say its state is replayed).
       * Tasks without navigation (MiniWoB++) always replay.
       */
      search_by_url: z.boolean().default(false),
    },
  },
  rules: [
    {
      path: ['collect', 'search_keep'],
      broken: (c: View) => c.collect.search_keep === 'exploratory' && c.collect.search !== 'branch',
      message: 'exploratory keeps what a search did: set collect.search branch too',
    },
    {
      path: ['collect', 'search_keep'],
      broken: (c: View) =>
        c.collect.search_keep === 'exploratory' &&
        c.env.suite === 'miniwob' &&
        !c.env.miniwob.offer_navigation,
      message:
        'exploratory trajectories go back with GoBack, which MiniWoB++ pages do not offer: ' +
        'set env.miniwob.offer_navigation true, or keep search_keep from_start',
    },
  ],
});
