// Which code runs for each role in a child process.
import type { Role } from '../protocol.js';
import { envRole } from './env-role.js';
import { faultRole } from './fault-role.js';
import { inferenceRole } from './inference-role.js';
import { learnerRole } from './learner-role.js';
import { replayRole } from './replay-role.js';
import type { RoleMain } from './worker-shell.js';

export const ROLE_MAINS: Record<Role, RoleMain> = {
  env: envRole,
  inference: inferenceRole,
  replay: replayRole,
  learner: learnerRole,
  fault: faultRole,
};

export { runWorker, type WorkerArgs } from './worker-shell.js';
