// AWR's section (learner.algorithm awr, src/model/awr.ts): advantage-weighted regression as DigiRL
// trains. Replay keeps failures too, a critic learns the return from every step, and each step
// counts by its advantage.
import { z } from 'zod';
import { defineSection } from '../section.js';

interface View {
  policy_lm: string;
  learner: { kind: string; algorithm: string };
}

export const awr = defineSection({
  name: 'awr',
  owner: 'src/model',
  about: "AWR (learner.algorithm awr): DigiRL's advantage filter and the critic's λ",
  keys: {
    learner: {
      /** λ of DigiRL's advantage, λ^(steps left)·R + (1−λ)·(the critic's one-step change) */
      awr_lambda: z.number().min(0).max(1).default(0.9),
      /** DigiRL's filter: the policy trains on the steps whose advantage exceeds this */
      awr_threshold: z.number().default(0.05),
    },
  },
  rules: [
    {
      path: ['learner', 'algorithm'],
      broken: (c: View) =>
        c.learner.algorithm === 'awr' && (c.learner.kind !== 'tfjs' || c.policy_lm !== 'tfjs'),
      message:
        'awr trains the embedded tfjs policy and its critic: set policy_lm tfjs and learner.kind tfjs, ' +
        'or use filtered_bc with an external learner',
    },
  ],
});
