// WebArena-Verified's env-ctrl (src/suites/env-ctrl.ts; docs/envs.md, "Resets and task order"): where
// each site of an external WebArena host is reset after a task that changed it.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

export const envCtrl = defineSection({
  name: 'env-ctrl',
  owner: 'src/suites',
  about: "site resets through WebArena-Verified's env-ctrl after a task that changed the site",
  keys: {
    '': {
      /**
       * env-ctrl per site (site → its base URL, e.g. shopping: http://host:8877): a task that changes
       * a site resets it there (POST /reset, then GET /health) before the next task on it runs; {}
       * resets nothing
       */
      env_ctrl: z.record(z.string(), z.string().url()).default({}),
      /** how long one site's reset (POST /reset until GET /health answers 2xx) may take */
      env_ctrl_timeout_ms: PositiveInt.default(600000),
    },
  },
});
