// The envs' section (src/envs, and src/suites for a suite module's own settings): how a browser
// episode is observed, acted on, timed and recorded.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

export const envs = defineSection({
  name: 'envs',
  owner: 'src/envs',
  about: 'how an env worker observes, acts, times and records a browser episode',
  keys: {
    env: {
      /** a suite module's own settings, as it reads them (src/suites) */
      suite_options: z.record(z.string(), z.unknown()).default({}),
      /**
       * print BrowserGym's `clickable` and `visible` on each line of the tree text; null: the suite's
       * choice (on for MiniWoB++, off for task files, whose text stays WebArena's byte for byte)
       */
      observation_flags: z.boolean().nullable().default(null),
      /** how replies are read: TTI's "Thought: … Action: …" or WebArena's ``` blocks */
      action_format: z.enum(['tti', 'webarena']).default('tti'),
      /** cap on one step (act, wait for load, observe) */
      action_timeout_ms: PositiveInt.default(30000),
      /** cap on a whole episode */
      episode_timeout_ms: PositiveInt.default(600000),
      /**
       * JPEG screenshots in episode records (for `tti-run view`): true for every episode, 'eval' for
       * eval episodes only, false for none. A screenshot costs ≈30–100 ms on a ≈120 ms step
       * (bench/screenshot.bench.ts), so collection episodes go without unless asked.
       */
      screenshot: z
        .union([z.boolean(), z.literal('eval')], { error: 'expected true, false or "eval"' })
        .default('eval'),
      /**
       * how a Type action enters its text: 'keys', a key press per character as WebArena does, or
       * 'insert', the text as one input event then Enter (≈half the time; for sites that read their
       * fields' values, as MiniArena's do — configs/miniarena.yaml sets it)
       */
      typing: z.enum(['keys', 'insert']).default('keys'),
      /**
       * start each episode in the previous one's browser context and tab, cleaned (cookies, storage,
       * other tabs, history), not a new context: no new renderer process per episode. Only for hosts
       * whose state lives on the server and in cookies, as MiniArena's (configs/miniarena.yaml sets it)
       */
      reuse_context: z.boolean().default(false),
      /** write each episode's record (steps, verdict) under RUN_DIR/episodes/ */
      record_episodes: z.boolean().default(true),
      /** how long an env worker waits for inference to answer one step */
      act_timeout_ms: PositiveInt.default(120000),
    },
  },
});
