// The supervisor's section (src/actors/supervisor): heartbeats, restarts and shutdown.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { NonNegativeInt, PositiveInt } from './keys.js';

export const supervisor = defineSection({
  name: 'supervisor',
  owner: 'src/actors/supervisor',
  about: 'heartbeats, restart intensity and graceful shutdown of the worker processes',
  keys: {
    supervisor: {
      heartbeat_interval_ms: PositiveInt.default(500),
      /** a worker silent for this long is killed and restarted */
      heartbeat_timeout_ms: PositiveInt.default(5000),
      /**
       * how long a worker in a long synchronous computation it declared (the learner training: tfjs
       * holds the event loop for each step) may go without a heartbeat before it is taken for hung
       */
      compute_grace_ms: PositiveInt.default(60000),
      /** how long a spawned worker has to register */
      register_timeout_ms: PositiveInt.default(30000),
      /** restart intensity (OTP's intensity/period): more than max_restarts within restart_window_s stops the run */
      max_restarts: NonNegativeInt.default(5),
      restart_window_s: z.number().positive().default(60),
      backoff_initial_ms: NonNegativeInt.default(100),
      backoff_max_ms: NonNegativeInt.default(5000),
      /** how long in-flight work may take to finish on a graceful stop before processes are killed */
      shutdown_timeout_ms: PositiveInt.default(10000),
    },
  },
});
