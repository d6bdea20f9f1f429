// The control socket: a worker registers, beats and says goodbye (worker DEALER → supervisor
// ROUTER); the supervisor answers with the run's endpoints and config, and commands (ROUTER →
// DEALER).
import { z } from 'zod';
import { Count, Speaker, WorkerId } from './fields.js';

export const ROLES = ['env', 'inference', 'replay', 'learner', 'fault'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Counters every process reports in its heartbeat. */
export const WorkerStats = z.object({
  rejectedFrames: Count,
  busy: z.boolean(),
  /**
   * set while the worker runs a long synchronous computation (the learner's training): the most it
   * may go without a heartbeat before it is taken for hung, instead of the run's heartbeat timeout
   */
  graceMs: Count.optional(),
  counters: z.record(z.string(), z.number()),
  /** facts that are words, not numbers (e.g. the tfjs backend in use) */
  labels: z.record(z.string(), z.string()).default({}),
});
export type WorkerStats = z.infer<typeof WorkerStats>;

/** Where each socket of a run lives; decided by the supervisor, handed to workers at register. */
export const Endpoints = z.object({
  control: z.string(),
  tasks: z.string(),
  status: z.string(),
  events: z.string(),
  /** inference workers' act sockets, by worker id */
  act: z.record(z.string(), z.string()),
  trajectories: z.string(),
  samples: z.string(),
  weights: z.string(),
  /** per-worker sockets that exist only to be probed (fault role), by worker id */
  probe: z.record(z.string(), z.string()),
  /**
   * the supervisor's act relay for inference workers on other machines (they dial out and never
   * bind): env workers send to `front` like any act socket, remote inference connects to `back`
   */
  relay: z.object({ front: z.string(), back: z.string() }).optional(),
});
export type Endpoints = z.infer<typeof Endpoints>;

// --- control: worker DEALER → supervisor ROUTER ------------------------------------------------

/** Where a spawned worker finds the nonce its supervisor gave it (Register.spawn). */
export const SPAWN_NONCE_ENV = 'TTI_SPAWN_NONCE';

export const Register = z.object({
  type: z.literal('register'),
  role: Role,
  workerId: WorkerId,
  pid: z.number().int().positive(),
  hostname: z.string(),
  /**
   * a worker that joined from another machine: the id of its credential, and a proof that it holds
   * that key's secret (src/protocol/register-proof.ts); its workerId is the key id
   */
  credential: z.object({ keyId: WorkerId, proof: z.string() }).optional(),
  /**
   * a spawned worker: the nonce its supervisor gave this process (its environment, SPAWN_NONCE_ENV),
   * new for every spawn; what admits it, not its pid, which any local process can learn or claim
   */
  spawn: z.string().max(128).optional(),
});
export const Heartbeat = z.object({
  type: z.literal('heartbeat'),
  workerId: WorkerId,
  key: Speaker.optional(),
  stats: WorkerStats,
});
export const WorkerError = z.object({
  type: z.literal('worker_error'),
  workerId: WorkerId,
  key: Speaker.optional(),
  message: z.string(),
  fatal: z.boolean(),
});
export const Bye = z.object({
  type: z.literal('bye'),
  workerId: WorkerId,
  key: Speaker.optional(),
  reason: z.string(),
});
/** The learner's answer to a `train` command: one filtered-BC pass is done and its weights are out. */
export const Trained = z.object({
  type: z.literal('trained'),
  workerId: WorkerId,
  key: Speaker.optional(),
  iteration: Count,
  /** the version now published (unchanged when there was nothing to train on) */
  policyVersion: Count,
  trajectories: Count,
  samples: Count,
  /** steps whose action is not one of the policy's candidates (e.g. recorded from another policy) */
  skipped: Count,
  loss: z.number().nullable(),
  samplesPerSec: z.number().nullable(),
  checkpoint: z.string().nullable(),
  durationMs: z.number(),
  /** kept trajectories older than the train command's minPolicyVersion, left out of the sample */
  stale: Count.optional(),
});
export type TrainedMessage = z.infer<typeof Trained>;

// --- control: supervisor ROUTER → worker DEALER ------------------------------------------------

export const Registered = z.object({
  type: z.literal('registered'),
  runId: z.string(),
  workerId: WorkerId,
  endpoints: Endpoints,
  /** the run's resolved config, validated again by the worker with the config schema */
  config: z.record(z.string(), z.unknown()),
  heartbeatIntervalMs: Count,
  /** a worker that hears nothing from the supervisor for this long exits by itself */
  supervisorTimeoutMs: Count,
  /** the run's policy version now: a remote inference worker serves only once it has these weights */
  policyVersion: Count.optional(),
});
export const HeartbeatAck = z.object({ type: z.literal('heartbeat_ack') });
/** `host-down`: an env worker's web host stops answering for a while (tests and chaos) */
export const FAULTS = ['crash', 'hang', 'garbage', 'slow', 'host-down'] as const;
export const Fault = z.enum(FAULTS);
export type Fault = z.infer<typeof Fault>;
export const Command = z.discriminatedUnion('command', [
  z.object({ type: z.literal('command'), command: z.literal('shutdown'), deadlineMs: Count }),
  z.object({ type: z.literal('command'), command: z.literal('fault'), fault: Fault }),
  /** learner: train one iteration on samples from replay, then publish `policyVersion` */
  z.object({
    type: z.literal('command'),
    command: z.literal('train'),
    iteration: Count,
    policyVersion: Count,
    /**
     * rollout.max_policy_lag ≥ 1: train only on trajectories every step of which was sampled under
     * this version or a newer one (absent: the whole buffer, as TTI samples it)
     */
    minPolicyVersion: Count.optional(),
  }),
  /** learner: publish the current weights again (an inference worker joined late, or missed them) */
  z.object({ type: z.literal('command'), command: z.literal('publish_weights') }),
  /** env: the act sockets to use now (an inference worker on another machine joined or was lost) */
  z.object({
    type: z.literal('command'),
    command: z.literal('act_endpoints'),
    act: z.record(z.string(), z.string()),
  }),
]);
export type CommandMessage = z.infer<typeof Command>;
export const Refused = z.object({ type: z.literal('refused'), reason: z.string() });

export type RegisteredMessage = z.infer<typeof Registered>;
