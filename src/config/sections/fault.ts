// The fault-injection workers' section (src/actors/roles, fault-role.ts): for tests and chaos runs.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { NonNegativeInt } from './keys.js';

export const fault = defineSection({
  name: 'fault',
  owner: 'src/actors/roles',
  about: 'fault-injection workers, for tests and chaos runs',
  keys: {
    workers: {
      /** fault-injection workers, for tests and chaos runs */
      fault: NonNegativeInt.default(0),
    },
    fault: {
      /** a fault worker crashes this long after it registers (null: only on command) */
      crash_after_ms: NonNegativeInt.nullable().default(null),
      crash_message: z.string().default('injected crash'),
      /** a fault worker starts its role this long after registering (a slow start, as an env worker launching its browser) */
      start_delay_ms: NonNegativeInt.default(0),
    },
  },
});
