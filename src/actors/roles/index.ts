// Which code runs for each role in a child process. A worker loads its own role's modules only (not
// Chromium's driver and MiniArena in a replay worker, nor tfjs in an env worker): a restarted
// worker registers again sooner on a busy machine.
import type { Role } from '../../protocol/index.js';
import type { RoleMain } from './worker-shell.js';

export const ROLE_MAINS: Record<Role, () => Promise<RoleMain>> = {
  env: async () => (await import('./env-role.js')).envRole,
  inference: async () => (await import('./inference-role.js')).inferenceRole,
  replay: async () => (await import('./replay-role.js')).replayRole,
  learner: async () => (await import('./learner-role.js')).learnerRole,
  fault: async () => (await import('./fault-role.js')).faultRole,
};

export { readJoin } from './remote-join.js';
export { runWorker, type WorkerArgs } from './worker-shell.js';
