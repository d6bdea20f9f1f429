// The trajectories socket (env PUSH → replay PULL, acknowledged on its own) and the samples the
// learner draws from replay (learner DEALER → replay ROUTER).
import { z } from 'zod';
import { ActionOffers, Observation } from './act.js';
import { Count, Speaker, WorkerId } from './fields.js';

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
  /** draw only from trajectories whose oldest step's policy version is at least this (absent: all) */
  minPolicyVersion: Count.optional(),
});
export const SampleBatch = z.object({
  type: z.literal('sample_batch'),
  /** trajectories left out as older than the request's minPolicyVersion (absent: none asked) */
  stale: Count.optional(),
  /**
   * in episode order (iteration, then place in its phase), whatever order replay received them in;
   * the failed ones asked for (maxFailures) follow the kept ones, in episode order too
   */
  trajectories: z.array(Trajectory),
});
