// The embedded trainable policy's section (src/model, and its inference worker's batching):
// backend, featurizing, batching, the online learner's regularizers, checkpoints and the prior.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { NonNegativeInt, PositiveInt } from './keys.js';

interface View {
  policy_lm: string;
  model: { prior: string | null };
}

export const tfjsPolicy = defineSection({
  name: 'tfjs-policy',
  owner: 'src/model',
  about: 'the embedded tfjs policy (policy_lm tfjs): backend, featurizing, batching, regularizers, prior',
  keys: {
    model: {
      /** the TensorFlow.js backend: the best that loads (gpu → node → wasm → cpu), or one forced */
      backend: z.enum(['auto', 'gpu', 'node', 'wasm', 'cpu']).default('auto'),
      /**
       * where a page is featurized for the trainable policy: 'env', by the env worker that has it,
       * so the inference worker runs only the network (docs/model.md, "Speed"); 'inference', by the
       * inference worker from the raw observation
       */
      featurize: z.enum(['env', 'inference']).default('env'),
      /** dynamic batching in the inference worker */
      max_batch: PositiveInt.default(16),
      max_wait_ms: NonNegativeInt.default(5),
      /** global gradient-norm clip (TTI's max_grad_norm is 0.01 for a 12B model; ours is tiny) */
      clip_norm: z.number().positive().default(1.0),
      /**
       * weight of the penalty on the learned score's square (BcTrainer's scorePenalty): keeps what a
       * few kept trajectories teach from pushing whole kinds of action down on every other task
       * (docs/model.md, "Learning from a few successes online"); 0 turns it off
       */
      score_penalty: z.number().nonnegative().default(0.1),
      /** how many checkpoints the learner keeps */
      keep_checkpoints: PositiveInt.default(3),
      /**
       * a fresh policy's prior (src/model/prior.ts): null is uniform per action kind; else a JSON file
       * of kind weights and fact weights, such as `tti-run pretrain --prior-only` fits to demos.
       * Checked when a run starts; like model.checkpoint, it must be on every machine of the run
       */
      prior: z.string().nullable().default(null),
    },
  },
  rules: [
    {
      path: ['model', 'prior'],
      broken: (c: View) => c.model.prior !== null && c.policy_lm !== 'tfjs',
      message: "a prior shapes the embedded tfjs policy: set policy_lm tfjs, or leave the chat model's to it",
    },
  ],
});
