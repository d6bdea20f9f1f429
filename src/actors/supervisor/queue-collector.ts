// The loop's collector (src/loop/collector.ts, streaming-collector.ts) in the actor system: a
// request's episodes go into the episode queue that env workers pull from (task-loop.ts), and a new
// policy version counts once every inference worker serves it (worker-pool.ts). The synchronous
// loop runs one request at a time; the asynchronous one queues several, an eval beside collection.
import type { CollectRequest, EpisodeOutcome, StreamingCollector } from '../../loop/index.js';
import type { EpisodeResultMessage } from '../../protocol/index.js';
import type { EpisodeQueue } from './episode-queue.js';

export class QueueCollector implements StreamingCollector {
  private readonly listeners: ((outcome: EpisodeOutcome) => void)[] = [];

  constructor(
    private readonly queue: EpisodeQueue,
    /** resolves once every inference worker serves at least this version (or gives up, with a warning) */
    private readonly awaitInferenceVersion: (policyVersion: number) => Promise<void>,
  ) {
    queue.onResult = (result) => {
      for (const listener of this.listeners) listener(result);
    };
  }

  collect(request: CollectRequest): Promise<EpisodeResultMessage[]> {
    return this.queue.run(request.episodes, request.phase);
  }

  submit(request: CollectRequest): Promise<EpisodeResultMessage[]> {
    return this.queue.run(request.episodes, request.phase);
  }

  onOutcome(listener: (outcome: EpisodeOutcome) => void): void {
    this.listeners.push(listener);
  }

  awaitPolicy(policyVersion: number): Promise<void> {
    return this.awaitInferenceVersion(policyVersion);
  }

  get requeued(): number {
    return this.queue.requeued;
  }
}
