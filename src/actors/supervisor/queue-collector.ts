// The loop's Collector (src/loop/collector.ts) in the actor system: a phase's episodes go into the
// episode queue that env workers pull from (task-loop.ts), and a new policy version counts once
// every inference worker serves it (worker-pool.ts).
import type { Collector, CollectRequest } from '../../loop/index.js';
import type { EpisodeResultMessage } from '../../protocol/index.js';
import type { EpisodeQueue } from './episode-queue.js';

export class QueueCollector implements Collector {
  constructor(
    private readonly queue: EpisodeQueue,
    /** resolves once every inference worker serves at least this version (or gives up, with a warning) */
    private readonly awaitInferenceVersion: (policyVersion: number) => Promise<void>,
  ) {}

  collect(request: CollectRequest): Promise<EpisodeResultMessage[]> {
    return this.queue.run(request.episodes);
  }

  awaitPolicy(policyVersion: number): Promise<void> {
    return this.awaitInferenceVersion(policyVersion);
  }

  get requeued(): number {
    return this.queue.requeued;
  }
}
