// The sockets' section (src/actors/supervisor, endpoints.ts and sockets.ts): ipc or tcp, and the
// workers that join from other machines.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { NonNegativeInt, PositiveInt } from './keys.js';

interface View {
  transport: { listen: string | null };
  remote: { env: number; inference: number };
}

// Remote workers reach a run only through its listening sockets.
const needsListen = (role: 'env' | 'inference') => ({
  path: ['remote', role],
  broken: (c: View) => c.remote[role] > 0 && c.transport.listen === null,
  message: (c: View) =>
    `${c.remote[role]} remote ${role} workers need the run to listen: pass --listen tcp://ADDR:PORT (transport.listen)`,
});

export const transport = defineSection({
  name: 'transport',
  owner: 'src/actors/supervisor',
  about: "the run's sockets (ipc, or tcp with CURVE) and the workers that join from other machines",
  keys: {
    /**
     * per-socket bounds (src/protocol/transport.ts): the largest frame, in MiB, by what a socket
     * carries (a bigger one cuts its sender's connection and is dropped), and the messages queued
     * each way (high-water marks)
     */
    'transport.limits': {
      frame_mb: PositiveInt.default(16),
      trajectory_frame_mb: PositiveInt.default(256),
      weights_frame_mb: PositiveInt.default(1024),
      send_hwm: PositiveInt.default(1000),
      receive_hwm: PositiveInt.default(1000),
    },
    transport: {
      /** ipc:// sockets in the run directory (default), or tcp:// on `host` (CURVE when not loopback) */
      kind: z.enum(['ipc', 'tcp']).default('ipc'),
      host: z.string().default('127.0.0.1'),
      linger_ms: NonNegativeInt.default(200),
      /**
       * `tcp://ADDR:PORT` (`tti-run train --listen`): the run's sockets listen on ADDR, control at PORT
       * and the rest on the ports after it, for workers on other machines; always CURVE, every client
       * key checked against the run's allow-list. null: the run is reachable from this machine only
       */
      listen: z
        .string()
        .regex(/^tcp:\/\/(\[[0-9a-fA-F:]+\]|[^:/\s]+):([1-9][0-9]{0,4})$/, {
          error: 'expected tcp://ADDR:PORT, e.g. tcp://0.0.0.0:5555',
        })
        .refine((v) => Number(v.slice(v.lastIndexOf(':') + 1)) <= 65000, {
          error: 'the port must leave room for the ports after it (at most 65000)',
        })
        .nullable()
        .default(null),
    },
    /** Workers expected to join from other machines (`tti-run worker --join`), by role. */
    remote: {
      env: NonNegativeInt.default(0),
      inference: NonNegativeInt.default(0),
    },
  },
  rules: [needsListen('env'), needsListen('inference')],
});
