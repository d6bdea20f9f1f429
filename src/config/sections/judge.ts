// The judge's section (src/envs, evaluators): who grades answers that need a model, WebVoyager's
// success judge and WebArena's fuzzy_match / ua_match.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

export const judge = defineSection({
  name: 'judge',
  owner: 'src/envs',
  about: "who grades answers that need a model (WebVoyager's judge, WebArena's fuzzy_match, ua_match)",
  keys: {
    judge: {
      /** 'none': such answers are unscored; 'policy': the policy's endpoint and model (as TTI does); 'endpoint': the keys below */
      kind: z.enum(['none', 'policy', 'endpoint']).default('none'),
      base_url: z.string().url().nullable().default(null),
      model: z.string().nullable().default(null),
      api_key_env: z.string().default('OPENAI_API_KEY'),
      /** judge prompt for WebVoyager answers: 'webvoyager_judge' (prompts/) or a path to a text file */
      prompt: z.string().default('webvoyager_judge'),
      max_tokens: PositiveInt.default(512),
    },
  },
});
