// The wire protocol between tti's processes, declared once.
//
// Every message is a zod schema; its TypeScript type is inferred from that schema, so the type and
// the runtime check cannot drift apart. A message travels as ZeroMQ frames:
//   [ msgpack(header), raw0, raw1, ... ]
// The header is `{ v: PROTOCOL_VERSION, raw: [byteLength...], body: { type, ...fields } }`. Large binary payloads (tensors,
// screenshots) travel as their own raw frames, never inside the msgpack map: a Buffer unpacked from
// inside a map is a view at an arbitrary offset, and a Float32Array over it throws.
import { Packr } from 'msgpackr';
import { z } from 'zod';
import { EpisodeTiming } from './episode-timing.js';
import { fastCheck } from './validate.js';

/**
 * Bumped when a message changes shape, so an older peer gets a clear refusal rather than its
 * messages failing validation one by one. 2: trajectories and act requests name their sender and key.
 * 3: an act request says which kind of policy it is for (`policy`), and carries that kind's inputs.
 * 4: a remote inference worker announces itself to the act relay (`act_ready`), which takes each
 * reply only from the worker its request went to; a spawned worker's `register` carries the nonce
 * its supervisor gave it (`spawn`), and status names no pids.
 * An added optional field (an episode result's `timing`) keeps the version: an older peer drops it
 * (zod strips unknown keys) and a newer one takes a result without it.
 */
export const PROTOCOL_VERSION = 4;

export const ROLES = ['env', 'inference', 'replay', 'learner', 'fault'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

const WorkerId = z.string().min(1).max(128);

// Hot columns (an observation's node list) are checked with one tight loop instead of zod's
// per-element machinery: 1,200 elements cost ~1 µs this way against ~30 µs (bench/transport).
// A plain loop rather than `every(callback)`: it stays fast in a process that has been idle.
const stringColumn = z.custom<string[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}, 'expected an array of strings');
const intColumn = z.custom<number[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    // `(x | 0) === x` settles small integers without a call; Number.isInteger the rest.
    if (((x as number) | 0) !== x && !Number.isInteger(x)) return false;
  }
  return true;
}, 'expected an array of integers');
/** a column of 0/1 flags */
const flagColumn = z.custom<number[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (v[i] !== 0 && v[i] !== 1) return false;
  return true;
}, 'expected an array of 0 and 1');
const Count = z.number().int().nonnegative();
/** a chat model's token usage (chat policies only) */
const TokenUsage = z.object({ promptTokens: Count, completionTokens: Count });

/** Describes one raw frame that follows the header. */
export const RawFrameSpec = z.object({
  name: z.string(),
  dtype: z.enum(['float32', 'int32', 'uint8', 'jpeg', 'png']),
  shape: z.array(Count),
});
export type RawFrameSpec = z.infer<typeof RawFrameSpec>;

/** Counters every process reports in its heartbeat. */
export const WorkerStats = z.object({
  rejectedFrames: Count,
  busy: z.boolean(),
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

/**
 * The key a worker's message speaks with (speaker-proof.ts): in a run whose sockets take CURVE, the
 * receiver (the supervisor, replay, inference) drops a message whose worker id is not its key's;
 * absent in a run without CURVE.
 */
const Speaker = z.object({ id: WorkerId, tag: z.string().max(128) });

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

// --- tasks: env DEALER → supervisor ROUTER ------------------------------------------------------

export const TaskRequest = z.object({
  type: z.literal('task_request'),
  workerId: WorkerId,
  key: Speaker.optional(),
  requestId: Count,
});
export const TaskAssignment = z.object({
  type: z.literal('task_assignment'),
  requestId: Count,
  episodeId: z.string(),
  /** the task file and the task's id in it; each env worker loads task files with its own hosts */
  taskFile: z.string(),
  taskId: z.string(),
  horizon: z.number().int().positive(),
  minTry: z.number().int().positive(),
  split: z.enum(['train', 'test']),
  /** the iteration the episode belongs to (0 outside training) */
  iteration: Count,
  /** act greedily (eval) rather than sample with the temperature (collection) */
  greedy: z.boolean(),
  /** the sampling temperature of the episode's iteration (config `temperature`) */
  temperature: z.number().nonnegative(),
  /** the episode's sampling seed, from the run's: step k samples with mixSeeds(seed, k) */
  seed: Count,
  /** send the trajectory to replay (collection); eval episodes are only reported */
  toReplay: z.boolean(),
});
export const NoTask = z.object({ type: z.literal('no_task'), requestId: Count, retryAfterMs: Count });
/** env → supervisor once an episode is scored (and, for collection, durable in replay). */
export const EpisodeResult = z.object({
  type: z.literal('episode_result'),
  workerId: WorkerId,
  key: Speaker.optional(),
  requestId: Count,
  episodeId: z.string(),
  taskFile: z.string(),
  taskId: z.string(),
  split: z.enum(['train', 'test']),
  iteration: Count,
  reward: z.number(),
  /** the page's raw reward (−1…1) for MiniWoB++ episodes, where a partial reward is possible */
  score: z.number().optional(),
  steps: Count,
  answer: z.string().nullable(),
  /** why the answer passed the evaluator only by a lucky substring: scored 1, reward 0, not kept */
  lucky: z.string().optional(),
  endReason: z.string(),
  /** replay kept the trajectory (TTI's filter passed and it was new) */
  kept: z.boolean(),
  /** the policy versions that chose this episode's actions */
  policyVersions: z.array(Count),
  durationMs: z.number(),
  /** where the episode's wall time went, ms (a worker before it measured sends none) */
  timing: EpisodeTiming.optional(),
  /** a chat policy's tokens over the episode */
  usage: TokenUsage.optional(),
  /** a search's work (collect.search or eval_search: branch); `steps` then counts all its env steps */
  search: z
    .object({
      rollouts: Count,
      cells: Count,
      envSteps: Count,
      diverged: Count,
      deepest: Count,
      /** the critic's highest estimate on a page the search reached (null: no critic) */
      bestValue: z.number().nullable().optional(),
      /** the highest task progress on a page the search reached (null: not ranked by progress) */
      bestProgress: z.number().nullable().optional(),
      /** rollouts that ended within the budget (what a test-time search chose among) */
      finished: Count.optional(),
      /** rollouts that went back to their page by its URL (collect.search_by_url) */
      byUrl: Count.optional(),
      /** steps back from dead ends the kept trajectory holds, GoBacks and opposite scrolls (collect.search_keep: exploratory) */
      backSteps: Count.optional(),
    })
    .optional(),
});
export type EpisodeResultMessage = z.infer<typeof EpisodeResult>;
export const ResultAck = z.object({ type: z.literal('result_ack'), requestId: Count, episodeId: z.string() });
/** env → supervisor: an episode this worker cannot run (its web host is down); another worker gets it. */
export const EpisodeReturned = z.object({
  type: z.literal('episode_returned'),
  workerId: WorkerId,
  key: Speaker.optional(),
  requestId: Count,
  episodeId: z.string(),
  reason: z.string(),
});

// --- act: env DEALER → inference ROUTER ----------------------------------------------------------

/** The optional node columns (senders before them stay valid); each, when present, is as long as `ids`. */
const OPTIONAL_NODE_COLUMNS = [
  'clickable',
  'focusable',
  'editable',
  'visible',
  'states',
  'fresh',
  'x',
  'y',
  'w',
  'h',
] as const;

/** An observation in WebArena's form plus a columnar node list for trainable policies. */
export const Observation = z.object({
  text: z.string(),
  url: z.string(),
  nodes: z
    .object({
      ids: intColumn,
      roles: stringColumn,
      names: stringColumn,
      depths: intColumn,
      /** 1 when the node's box intersects the viewport (a click elsewhere hits nothing) */
      inViewport: intColumn,
      /** 1 when Chrome's DOMSnapshot says the node takes clicks (isClickable; a text node: its parent element) */
      clickable: flagColumn.optional(),
      /** 1 when the node can take focus (AX focusable) */
      focusable: flagColumn.optional(),
      /** 1 when the node is editable text (AX editable) */
      editable: flagColumn.optional(),
      /** 1 when at least half the node's box is in the viewport (BrowserGym's visibility) */
      visible: flagColumn.optional(),
      /** the node's true AX states among checked selected expanded pressed disabled focused required,
       * space-separated in that order ('' when none; checked: mixed reads "mixed") */
      states: stringColumn.optional(),
      /** 1 when the node was not in the episode's previous observation of this document */
      fresh: flagColumn.optional(),
      /** the node's box in viewport CSS pixels, rounded (0 0 0 0 when unknown) */
      x: intColumn.optional(),
      y: intColumn.optional(),
      w: intColumn.optional(),
      h: intColumn.optional(),
    })
    .refine((n) => {
      const len = n.ids.length;
      if (n.roles.length !== len || n.names.length !== len || n.depths.length !== len) return false;
      if (n.inViewport.length !== len) return false;
      for (const key of OPTIONAL_NODE_COLUMNS) {
        const column = n[key];
        if (column !== undefined && column.length !== len) return false;
      }
      return true;
    }, 'node columns differ in length'),
  /** a note for the policy: an invalid action, a re-check request */
  note: z.string().nullable(),
  /** a JPEG screenshot travels as a raw frame; this says which one, if any */
  screenshotFrame: z.number().int().nonnegative().nullable(),
});
export type Observation = z.infer<typeof Observation>;

/** a column of finite numbers */
const numberColumn = z.custom<number[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'number' || !Number.isFinite(v[i])) return false;
  return true;
}, 'expected an array of finite numbers');
const WireBag = z.object({ tok: intColumn, off: intColumn });
/** one candidate action as the encoder made it (src/model/candidates.ts) */
const WireCandidate = z.object({
  kind: z.string(),
  action: z.string(),
  node: z.number().int(),
  text: z.string(),
  source: z.string(),
});

/**
 * A trainable policy's encoded observation, made by the env worker (src/model/features.ts) so the
 * inference worker runs only the network. The shapes are checked where it is decoded, against the
 * policy's own sizes; here, only that every column is numbers.
 */
export const PolicyFeatures = z.object({
  buckets: z.number().int().positive(),
  T: Count,
  candidates: z.array(WireCandidate),
  kind: intColumn,
  /** per candidate (src/model/encode.ts CANDIDATE_BAGS) */
  bags: z.object({ self: WireBag, context: WireBag, label: WireBag, argument: WireBag, value: WireBag }),
  /** per observation (OBSERVATION_BAGS) */
  observationBags: z.object({ url: WireBag, title: WireBag, history: WireBag, last: WireBag }),
  scalars: numberColumn,
  matchSelf: intColumn,
  matchContext: intColumn,
  matchArgument: intColumn,
  matchLabel: intColumn,
  taskTok: intColumn,
  taskFlags: numberColumn,
  observationScalars: numberColumn,
  excluded: intColumn,
});
export type PolicyFeatures = z.infer<typeof PolicyFeatures>;

/** The actions a task offers beyond the page's own; absent, everything is (stop included). */
export const ActionOffers = z.object({
  /** `stop [answer]` / `ANSWER [text]`: MiniWoB++'s pages end episodes themselves and offer none */
  stop: z.boolean(),
  /**
   * going back and forward, `goto` and tabs (BrowserGym's nav and tab subsets): MiniWoB++'s task is
   * one page, and going back leaves it; absent, offered
   */
  navigation: z.boolean().optional(),
  /** the form of the answer: free text (absent), or WebArena-Verified's structured JSON response */
  answer: z.enum(['text', 'webarena-verified']).optional(),
});
export type ActionOffers = z.infer<typeof ActionOffers>;

/** What every act request carries, whatever the policy. */
const actRequestCommon = {
  type: z.literal('act_request'),
  /** the env worker that asks, and the key it speaks with: one credential cannot act in another's name */
  workerId: WorkerId,
  key: Speaker.optional(),
  episodeId: z.string(),
  step: Count,
  horizon: z.number().int().positive(),
  intent: z.string(),
  observation: Observation,
  /** this episode's earlier actions, oldest first */
  history: z.array(z.string()),
  greedy: z.boolean(),
  /** the episode's sampling temperature (its task assignment's) */
  temperature: z.number().nonnegative(),
  /**
   * this step's sampling seed (as vLLM's per-request seed): the same seed draws the same action
   * from the same logits, whatever the batch or arrival order; absent, inference's own stream
   */
  seed: Count.optional(),
  /** the actions the task offers (absent: stop is offered) */
  offers: ActionOffers.optional(),
};
/** An act request for the trainable (tfjs) policy. */
export const TfjsActRequest = z.object({
  ...actRequestCommon,
  policy: z.literal('tfjs'),
  /** the URL of each earlier step and its action with the element named by role and name
   * (src/model/trail.ts), oldest first */
  trail: z.array(z.object({ url: z.string(), action: z.string() })),
  /** this step's encoded observation (absent: inference encodes it) */
  features: PolicyFeatures.optional(),
});
/** An act request for a chat policy: it is stateless, so the request carries the episode's context. */
export const ChatActRequest = z.object({
  ...actRequestCommon,
  policy: z.literal('chat'),
  /** the task's site (prompt hints) */
  site: z.string(),
  /** the earlier replies in full, oldest first */
  replies: z.array(z.string()),
  /** the newest screenshots (this step's included) as raw JPEG frames, by step */
  screenshots: z.array(z.object({ step: Count, frame: Count })),
});
/**
 * A remote inference worker behind the act relay, every second: which worker is on this connection,
 * with the key it speaks with. The relay sends requests only to workers so announced, and takes each
 * reply only from the connection its request went to.
 */
export const ActReady = z.object({
  type: z.literal('act_ready'),
  workerId: WorkerId,
  key: Speaker.optional(),
});
export const ACT_READY_EVERY_MS = 1000;
/** An act request, by the kind of policy it is for: each kind's inputs are its own. */
export const ActRequest = z.discriminatedUnion('policy', [TfjsActRequest, ChatActRequest]);
export const ActReply = z.object({
  type: z.literal('act_reply'),
  episodeId: z.string(),
  step: Count,
  /** the raw policy output, e.g. TTI's `Thought: … Action: …` reply */
  reply: z.string(),
  policyVersion: Count,
  usage: TokenUsage.optional(),
  /** the tfjs policy's critic: the episode's expected reward from this page (what a search ranks pages by) */
  value: z.number().optional(),
  /** the tfjs policy: the action's log-probability under the distribution it was drawn from */
  logProb: z.number().optional(),
});

// --- trajectories: env PUSH → replay PULL -------------------------------------------------------

export const TrajectoryStep = z.object({
  /** WebArena's observation text */
  observation: z.string(),
  url: z.string(),
  /** the observation's node columns, so a trainable policy can rebuild its candidates */
  nodes: Observation.shape.nodes,
  note: z.string().nullable(),
  reply: z.string(),
  action: z.string(),
  policyVersion: Count,
});
export type TrajectoryStep = z.infer<typeof TrajectoryStep>;
export const Trajectory = z.object({
  type: z.literal('trajectory'),
  episodeId: z.string(),
  taskId: z.string(),
  site: z.string(),
  intent: z.string(),
  horizon: z.number().int().positive(),
  iteration: Count,
  /** TTI's reward: 1 for a success, else 0 */
  reward: z.number(),
  /** the page's own reward where it gives one (MiniWoB++'s raw reward, −1…1) */
  rawReward: z.number().optional(),
  /** the page's time-discounted reward (MiniWoB++'s WOB_REWARD_GLOBAL) */
  discountedReward: z.number().optional(),
  /** the actions the task offered (absent: stop was offered), so the learner rebuilds the same candidates */
  offers: ActionOffers.optional(),
  answer: z.string().nullable(),
  steps: z.array(TrajectoryStep),
});
export type Trajectory = z.infer<typeof Trajectory>;
/**
 * A trajectory as an env worker sends it: with its worker id and key, so replay takes it only from
 * the worker it names. Replay keeps the trajectory without them (no key in the log or in samples).
 */
export const TrajectoryMessage = Trajectory.extend({ workerId: WorkerId, key: Speaker.optional() });
export type TrajectoryMessage = z.infer<typeof TrajectoryMessage>;
/** replay → env once the trajectory is durable (fsynced) or known to be filtered out */
export const TrajectoryAck = z.object({
  type: z.literal('trajectory_ack'),
  episodeId: z.string(),
  kept: z.boolean(),
  duplicate: z.boolean(),
});

// --- samples: learner DEALER → replay ROUTER -------------------------------------------------------

export const SampleRequest = z.object({
  type: z.literal('sample_request'),
  maxTrajectories: Count,
  /** the most failed trajectories to add (replay keeps them when the learner is awr); absent: none */
  maxFailures: Count.optional(),
  /** the draw's seed (the run's seed and the iteration): a resent request gets the same sample */
  seed: Count,
});
export const SampleBatch = z.object({
  type: z.literal('sample_batch'),
  /**
   * in episode order (iteration, then place in its phase), whatever order replay received them in;
   * the failed ones asked for (maxFailures) follow the kept ones, in episode order too
   */
  trajectories: z.array(Trajectory),
});

// --- weights: learner PUB → inference SUB ---------------------------------------------------------

export const Weights = z.object({
  type: z.literal('weights'),
  policyVersion: Count,
  /** one spec per raw frame, in order */
  tensors: z.array(RawFrameSpec),
  /** a chat policy's new version is a served model name (no tensors) */
  model: z.string().optional(),
});

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
  lag: z.object({ bound: Count, last: Count, max: Count, stale: Count }).optional(),
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

// --- what each socket accepts --------------------------------------------------------------------

/** Each socket validates against the union of the messages that may arrive on it: a known message
 * on the wrong socket is rejected like an unknown one. */
export const Inbound = {
  controlToSupervisor: z.discriminatedUnion('type', [Register, Heartbeat, WorkerError, Bye, Trained]),
  controlToWorker: z.union([Registered, HeartbeatAck, Command, Refused]),
  tasksToSupervisor: z.discriminatedUnion('type', [TaskRequest, EpisodeResult, EpisodeReturned]),
  tasksToEnv: z.discriminatedUnion('type', [TaskAssignment, NoTask, ResultAck]),
  actToInference: ActRequest,
  actToEnv: ActReply,
  trajectoriesToReplay: TrajectoryMessage,
  trajectoriesToEnv: TrajectoryAck,
  samplesToReplay: SampleRequest,
  samplesToLearner: SampleBatch,
  weightsToInference: Weights,
  statusToSupervisor: z.discriminatedUnion('type', [StatusRequest, StopRequest, InjectFault]),
  statusToClient: z.discriminatedUnion('type', [StatusReply, ControlReply]),
  events: RunEvent,
} as const;

export type InboundSchema = (typeof Inbound)[keyof typeof Inbound];
export type MessageOf<S extends z.ZodType> = z.infer<S>;

// --- encoding ------------------------------------------------------------------------------------

// One Packr for the process. `useRecords: false` keeps the encoding plain msgpack, readable by any
// msgpack peer (a Python worker, a debugging tool).
const packr = new Packr({ useRecords: false, mapsAsObjects: true });

const NO_FRAMES: Buffer[] = [];
const NO_LENGTHS: number[] = [];

export interface Decoded<T> {
  message: T;
  raw: Buffer[];
}

export type DecodeResult<T> = { ok: true; value: Decoded<T> } | { ok: false; reason: string };

/**
 * Frames for one message: the header, then its raw frames. The header is an envelope
 * `{ v, raw, body }`, so the message is packed as it is: copying it into a new object to add the
 * version (an object spread) cost ~20 µs per message in place (bench/transport).
 */
export function encode(message: object, raw: readonly Buffer[] = NO_FRAMES): Buffer[] {
  const lengths = raw.length === 0 ? NO_LENGTHS : raw.map((r) => r.byteLength);
  const header = packr.pack({ v: PROTOCOL_VERSION, raw: lengths, body: message });
  return raw.length === 0 ? [header] : [header, ...raw];
}

/** Decodes and validates frames against one socket's schema; never throws. */
export function decode<S extends z.ZodType>(schema: S, frames: readonly Buffer[]): DecodeResult<z.infer<S>> {
  const headerFrame = frames[0];
  if (!headerFrame || headerFrame.byteLength === 0) return { ok: false, reason: 'empty message' };
  const raw = frames.length > 1 ? frames.slice(1) : NO_FRAMES;
  let header: unknown;
  try {
    header = packr.unpack(headerFrame);
  } catch (error) {
    return { ok: false, reason: `header is not msgpack (${(error as Error).message})` };
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    return { ok: false, reason: 'header is not a map' };
  }
  const { v, raw: rawLengths, body } = header as Record<string, unknown>;
  if (v !== PROTOCOL_VERSION) {
    return { ok: false, reason: `protocol version ${String(v)} (this process speaks ${PROTOCOL_VERSION})` };
  }
  if (
    !Array.isArray(rawLengths) ||
    rawLengths.length !== raw.length ||
    rawLengths.some((n, i) => n !== raw[i]?.byteLength)
  ) {
    return { ok: false, reason: `raw frames do not match the header (${raw.length} received)` };
  }
  // The fast check accepts what zod would return unchanged; anything else gets zod's verdict.
  const check = fastCheck(schema);
  if (check?.(body)) return { ok: true, value: { message: body, raw } };
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'message';
    const type =
      typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string'
        ? (body as { type: string }).type
        : '?';
    return { ok: false, reason: `invalid '${type}' at ${where}: ${issue?.message ?? 'does not validate'}` };
  }
  return { ok: true, value: { message: parsed.data, raw } };
}

const Claim = z.object({ workerId: WorkerId, key: Speaker.optional() });
/** What the act relay reads of a request or a reply to pair them: its episode and step. */
const Turn = z.object({ episodeId: z.string(), step: Count });

/** A header's body, this version's, unpacked without validating it; null when there is none. */
function bodyOf(frames: readonly Buffer[]): unknown {
  const headerFrame = frames[0];
  if (!headerFrame || headerFrame.byteLength === 0) return null;
  let header: unknown;
  try {
    header = packr.unpack(headerFrame);
  } catch {
    return null;
  }
  if (typeof header !== 'object' || header === null) return null;
  const { v, body } = header as Record<string, unknown>;
  return v === PROTOCOL_VERSION ? body : null;
}

/**
 * The worker id and key a message names, read from its header without validating the rest: for a
 * relay that passes frames on undecoded but must hold them to their key (the act relay). Null when
 * the header names none, or is not this version's; the receiver's own decode rejects such a message.
 */
export function claimOf(frames: readonly Buffer[]): z.infer<typeof Claim> | null {
  const parsed = Claim.safeParse(bodyOf(frames));
  return parsed.success ? parsed.data : null;
}

/** The episode and step an act request or reply names, read as claimOf reads; null when none. */
export function turnOf(frames: readonly Buffer[]): z.infer<typeof Turn> | null {
  const parsed = Turn.safeParse(bodyOf(frames));
  return parsed.success ? parsed.data : null;
}

/** An `act_ready` announcement, read as claimOf reads; null for anything else. */
export function actReadyOf(frames: readonly Buffer[]): z.infer<typeof ActReady> | null {
  const parsed = ActReady.safeParse(bodyOf(frames));
  return parsed.success ? parsed.data : null;
}

/** A typed view of a raw tensor frame; copies only when the frame is not aligned for the dtype. */
export function float32View(frame: Buffer): Float32Array {
  if (frame.byteOffset % 4 === 0)
    return new Float32Array(frame.buffer, frame.byteOffset, frame.byteLength / 4);
  return new Float32Array(frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength));
}

export type RegisteredMessage = z.infer<typeof Registered>;
export type TaskAssignmentMessage = z.infer<typeof TaskAssignment>;
export type ActRequestMessage = z.infer<typeof ActRequest>;
export type TfjsActRequestMessage = z.infer<typeof TfjsActRequest>;
export type ChatActRequestMessage = z.infer<typeof ChatActRequest>;
export type ActReplyMessage = z.infer<typeof ActReply>;
export type WeightsMessage = z.infer<typeof Weights>;
