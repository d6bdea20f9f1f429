// The external learner's section (learner.kind external; src/actors/roles/external-learner-role.ts):
// how its result is served, and its data's images.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

export const externalLearner = defineSection({
  name: 'external-learner',
  owner: 'src/actors/roles',
  about: 'an external learner (learner.kind external): how its result is served, its images, its time cap',
  keys: {
    learner: {
      /** how inference moves to the result: a new served model name, or vLLM's /v1/load_lora_adapter */
      serve: z.enum(['model_name', 'lora']).default('model_name'),
      /** the name the result is served under; {version} {iteration} are replaced */
      model_name: z.string().default('tti-v{version}'),
      /** the images in the exported file: written next to it as files, or inline data URLs */
      images: z.enum(['files', 'data_url']).default('files'),
      /** cap on one run of the command */
      timeout_ms: PositiveInt.default(24 * 3600 * 1000),
    },
  },
});
