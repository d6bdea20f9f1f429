// Which code runs for each role in a child process. Each role's module (Chromium's driver, tfjs,
// MiniArena) loads only after the worker has registered: a restarted worker is back in the
// supervisor's table as soon as Node is up, not after seconds of module loading on a busy machine.
import type { Role } from '../protocol.js';
import type { RoleMain } from './worker-shell.js';

export const ROLE_MAINS: Record<Role, () => Promise<RoleMain>> = {
  env: async () => (await import('./env-role.js')).envRole,
  inference: async () => (await import('./inference-role.js')).inferenceRole,
  replay: async () => (await import('./replay-role.js')).replayRole,
  learner: async () => (await import('./learner-role.js')).learnerRole,
  fault: async () => (await import('./fault-role.js')).faultRole,
};

export { runWorker, type WorkerArgs } from './worker-shell.js';
