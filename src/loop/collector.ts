// The loop's first seam: whatever runs episodes. The actor system's collector hands them to env
// workers through its episode queue (src/actors/supervisor/queue-collector.ts); a test's is a few
// lines in memory.
//
// Synchronous TTI asks for one phase at a time and waits for all of it. A collector that streams
// episodes while the learner trains (issue 56, `rollout.max_policy_lag`) keeps this request's
// shape — tasks, horizon, the policy version they run under — and adds a way to read outcomes as
// they arrive; each outcome already says which policy versions chose its actions.
import type { EpisodeOutcome, EpisodeSpec } from './episode.js';

export interface CollectRequest {
  /** an iteration's collection (its trajectories go to replay) or an eval */
  phase: 'collect' | 'eval';
  iteration: number;
  /** the newest policy version the loop has published: the episodes run under it */
  policyVersion: number;
  episodes: readonly EpisodeSpec[];
}

export interface Collector {
  /** Runs the request's episodes; resolves with one outcome per episode, in the order given. */
  collect(request: CollectRequest): Promise<EpisodeOutcome[]>;
  /** Resolves once the episodes it runs from now on are sampled under at least this policy version. */
  awaitPolicy(policyVersion: number): Promise<void>;
  /** episodes handed out again so far (a worker died holding one, or gave one back) */
  readonly requeued: number;
}
