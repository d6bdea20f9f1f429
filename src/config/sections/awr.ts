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
  about: "AWR (learner.algorithm awr): DigiRL's advantage filter or exp weights, and the critic's λ",
  keys: {
    learner: {
      /** filter (DigiRL's: train on the steps whose advantage exceeds awr_threshold) or exp (exp(A/β), capped) */
      awr_weighting: z.enum(['filter', 'exp']).default('filter'),
      /** λ of DigiRL's advantage, λ^(steps left)·R + (1−λ)·(the critic's one-step change) */
      awr_lambda: z.number().min(0).max(1).default(0.9),
      /** filter: the advantage a step must exceed */
      awr_threshold: z.number().default(0.05),
      /** exp: β in exp(A/β) */
      awr_temperature: z.number().positive().default(0.3),
      /** exp: cap on one step's weight */
      awr_max_weight: z.number().positive().default(20),
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
