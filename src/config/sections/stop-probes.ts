// Stop probes while collecting (collect.stop_probes; src/search/stop-probes.ts and
// src/envs/evaluators/stop-probe.ts): every answer a page offers, scored as if the episode stopped.
import { z } from 'zod';
import { defineSection } from '../section.js';

export const stopProbes = defineSection({
  name: 'stop-probes',
  owner: 'src/search',
  about: 'stop probes while collecting: score each answer a page offers as if the episode stopped there',
  keys: {
    collect: {
      /**
       * On every page of a collection episode, score each answer the page offers as if the episode
       * stopped with it, where the task's verdict reads only the answer and the URL (string_match
       * without a judge, url_match; src/envs/evaluators/stop-probe.ts); the first page where one
       * succeeds ends the episode with it (the shortest such answer). A pass counts only beside what
       * the task names (src/model/evidence.ts), for a count under 100 only in the task's row and
       * read from a text that names what the task counts ("5 comments"), never by luck. Probes are
       * evaluator calls, not env steps. A branch search probes too, in every rollout. Off: TTI's
       * episodes, where only the policy stops. Tasks scored by program_html (the sites' state) are
       * not probed.
       */
      stop_probes: z.boolean().default(false),
    },
  },
});
