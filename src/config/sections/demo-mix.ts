// Demonstrations mixed into the embedded learner's training (src/model/demo-mix.ts).
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

interface View {
  policy_lm: string;
  learner: { kind: string; demos: string | null };
}

export const demoMix = defineSection({
  name: 'demo-mix',
  owner: 'src/model',
  about: "demonstrations mixed into every iteration's training of the embedded learner",
  keys: {
    learner: {
      /**
       * demonstrations mixed into every iteration's training: a file `tti-run pretrain --demos`
       * reads (trajectories or export-sft lines; a pretrain run's demos.jsonl), so that fine-tuning
       * from a pretrained checkpoint goes on imitating its demos while it learns from what it keeps
       * (src/model/demo-mix.ts); null trains on replay's sample alone, as TTI does
       */
      demos: z.string().min(1).nullable().default(null),
      /** with demos: how many of them (drawn without replacement, seeded) join each iteration's training */
      demos_per_iteration: PositiveInt.default(64),
    },
  },
  rules: [
    {
      path: ['learner', 'demos'],
      broken: (c: View) => c.learner.demos !== null && (c.learner.kind !== 'tfjs' || c.policy_lm !== 'tfjs'),
      message:
        'demos are mixed into the embedded tfjs learner: set policy_lm tfjs and learner.kind tfjs, ' +
        "or add them to your external learner's data",
    },
  ],
});
