// Test-time search in eval (eval_search branch, src/search; issue 23): the greedy episode, then
// rollouts sampled from pages gone back to; the pick among finished rollouts is the task's episode.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

export const testTimeSearch = defineSection({
  name: 'test-time-search',
  owner: 'src/search',
  about: 'search at eval (eval_search branch): its budget and temperature',
  keys: {
    '': {
      /**
       * none (one greedy episode per task) or branch (the greedy episode, then rollouts sampled from
       * pages gone back to, until eval_search_budget env steps; the finished rollout with the highest
       * mean log-probability of its actions is the task's episode; no verdict is read)
       */
      eval_search: z.enum(['none', 'branch']).default('none'),
      /** env steps one test-time search may spend on its task, replayed steps included */
      eval_search_budget: PositiveInt.default(60),
      /** the temperature a test-time search samples its later rollouts at */
      eval_search_temperature: z.number().positive().default(1),
    },
  },
});
