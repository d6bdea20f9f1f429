// The asynchronous loop's collector (rollout.max_policy_lag ≥ 1): requests queue up and run while
// the loop trains, instead of one at a time. Collection requests run oldest first; an eval request
// runs beside them on its own share of the env workers, so collection never waits for an eval. The
// actor system's is queue-collector.ts over its episode queue.
import type { Collector, CollectRequest } from './collector.js';
import type { EpisodeOutcome } from './episode.js';

export interface StreamingCollector extends Collector {
  /**
   * Queues a request behind those already queued and returns at once; the promise resolves with
   * one outcome per episode, in the order given, when the last of them arrives.
   */
  submit(request: CollectRequest): Promise<EpisodeOutcome[]>;
  /** Calls `listener` with every outcome, of any request, as it arrives. */
  onOutcome(listener: (outcome: EpisodeOutcome) => void): void;
}
