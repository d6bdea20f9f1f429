// The loop's section (src/loop): how far collection may run ahead of the learner.
import { defineSection } from '../section.js';
import { NonNegativeInt } from './keys.js';

export const rollout = defineSection({
  name: 'rollout',
  owner: 'src/loop',
  about: 'asynchronous collection: how many policy versions an episode may trail the learner by',
  keys: {
    rollout: {
      /**
       * 0: TTI's synchronous loop (collect, train, publish, eval, in turn). N ≥ 1: env workers never
       * wait for the learner; an episode sampled more than N versions behind is left out and counted,
       * the learner trains on no replayed trajectory older than that, and the eval runs pinned to a
       * snapshot of its version beside collection (src/loop/async-tti-loop.ts)
       */
      max_policy_lag: NonNegativeInt.default(0),
    },
  },
});
