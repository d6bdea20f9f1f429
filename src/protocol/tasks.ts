// The tasks socket: an env worker asks for an episode, reports its result, or gives it back (env
// DEALER → supervisor ROUTER); the supervisor assigns one or says there is none (ROUTER → DEALER).
import { z } from 'zod';
import { EpisodeTiming } from './episode-timing.js';
import { Count, Speaker, TokenUsage, WorkerId } from './fields.js';

// --- tasks: env DEALER → supervisor ROUTER ------------------------------------------------------

const ExtraName = z.string().min(1).max(40);
/**
 * What the strategies that ran an episode add to its result (src/episode/strategy.ts `extras`): one
 * number per entry, under the strategy's name and the name it declares for it. The protocol knows
 * none of them. A list, not a record, so the fast check (validate.ts) covers it.
 */
export const StrategyExtras = z
  .array(z.object({ strategy: ExtraName, name: ExtraName, value: z.number().nullable() }))
  .max(256);
export type StrategyExtras = z.infer<typeof StrategyExtras>;

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
  /**
   * act under this policy version, held by inference while it serves newer ones (the
   * asynchronous loop's eval, a snapshot of the weights); absent: the newest served
   */
  policyVersion: Count.optional(),
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
  /** what the strategies that ran the episode add (a search's rollouts and pages…); `steps` counts all its env steps */
  extras: StrategyExtras.optional(),
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

export type TaskAssignmentMessage = z.infer<typeof TaskAssignment>;
