// The status socket (CLI DEALER → supervisor ROUTER): the run's snapshot, a stop, an injected
// fault; and the run's event stream (PUB → SUB).
import { z } from 'zod';
import { Fault, Role } from './control.js';
import { Count, WorkerId } from './fields.js';

// --- status: CLI DEALER → supervisor ROUTER, and the event stream (PUB → SUB) ---------------------

/** `lost`: a remote worker whose heartbeat stopped; its own machine's manager restarts it, not tti */
export const WorkerState = z.enum([
  'starting',
  'ready',
  'unhealthy',
  'restarting',
  'stopping',
  'stopped',
  'lost',
]);
export type WorkerState = z.infer<typeof WorkerState>;
export const RunState = z.enum(['starting', 'running', 'stopping', 'stopped', 'failed']);
export type RunState = z.infer<typeof RunState>;

export const WorkerSnapshot = z.object({
  role: Role,
  id: WorkerId,
  state: WorkerState,
  restarts: Count,
  /** milliseconds since this worker's last heartbeat (null before the first) */
  lastHeartbeatMs: z.number().nullable(),
  lastError: z.string().nullable(),
  rejectedFrames: Count,
  counters: z.record(z.string(), z.number()),
  labels: z.record(z.string(), z.string()),
  /** the machine it runs on (its hostname) */
  host: z.string().optional(),
  /** joined from another machine (`tti-run worker --join`) rather than spawned by the supervisor */
  remote: z.boolean().optional(),
});
export type WorkerSnapshot = z.infer<typeof WorkerSnapshot>;

export const StatusSnapshot = z.object({
  runId: z.string(),
  state: RunState,
  /** why the run stopped or failed, when it has */
  reason: z.string().nullable(),
  iteration: Count,
  policyVersion: Count,
  horizon: Count,
  startedAt: z.number(),
  uptimeMs: z.number(),
  /** frames the supervisor's own sockets rejected */
  rejectedFrames: Count,
  workers: z.array(WorkerSnapshot),
  /** how many iterations the run is set to do */
  iterations: Count,
  /** what the current iteration is doing, and how far along it is */
  phase: z.enum(['starting', 'collect', 'train', 'eval', 'done']),
  phaseProgress: z.object({ done: Count, total: Count }),
  /** trajectories replay has received and kept (TTI's filter), over the whole run */
  replay: z.object({ seen: Count, kept: Count }),
  /** episodes finished and successful, over the whole run (collection and eval) */
  episodes: z.object({ done: Count, success: Count }),
  /** the TensorFlow.js backend the policy runs on (null before inference reports it) */
  backend: z.string().nullable(),
  /** why collection is paused ("replay: disk full at …"); null or absent when it is not */
  paused: z.string().nullable().optional(),
  /** rollout.max_policy_lag ≥ 1: the bound, the latest and largest lag of an episode, and the stale ones */
  lag: z
    .object({
      bound: Count,
      last: Count,
      max: Count,
      stale: Count,
      /** kept trajectories past the bound that the learner's latest sample left out of replay */
      leftOut: Count.optional(),
    })
    .optional(),
  /** a run that listens for remote workers: how many are expected, and refused handshakes (ZAP) */
  remote: z
    .object({
      listen: z.string(),
      expected: z.object({ env: Count, inference: Count }),
      refusedConnections: Count,
      /**
       * worker messages dropped because their key may not speak for the worker they name: the
       * supervisor's and every worker's (`counters.wrongKeyMessages`, replay's and inference's)
       */
      wrongKeyMessages: Count,
      /** act replies the relay refused: from a worker the request did not go to, or to no request */
      wrongWorkerReplies: Count.optional(),
    })
    .optional(),
});
export type StatusSnapshot = z.infer<typeof StatusSnapshot>;

export const StatusRequest = z.object({ type: z.literal('status_request') });
export const StatusReply = z.object({ type: z.literal('status_reply'), snapshot: StatusSnapshot });
export const StopRequest = z.object({ type: z.literal('stop_request'), token: z.string() });
export const InjectFault = z.object({
  type: z.literal('inject_fault'),
  token: z.string(),
  workerId: WorkerId,
  fault: Fault,
});
export const ControlReply = z.object({
  type: z.literal('control_reply'),
  ok: z.boolean(),
  message: z.string(),
});
export const RunEvent = z.object({
  type: z.literal('run_event'),
  at: z.number(),
  kind: z.string(),
  message: z.string(),
});
export type RunEvent = z.infer<typeof RunEvent>;
