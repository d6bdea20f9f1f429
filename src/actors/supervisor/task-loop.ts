// The tasks socket's loop: env workers pull episodes of the current phase from the episode queue
// and report each one when it is done (or give it back when their web host is down). It counts the
// run's episodes for status, and requeues episodes that ran past their worst case: a wedged
// browser whose worker still heartbeats must not hold an episode forever. A message whose key may
// not speak for the worker it names is dropped (src/run/speaker-check.ts): one env worker cannot take or
// report another's episodes.
import type { Logger } from '../../log/index.js';
import type { Channel, Inbound } from '../../protocol/index.js';
import type { SpeakerClaim } from '../../run/index.js';
import type { EpisodeQueue } from './episode-queue.js';

/** An episode running this much longer than its worst case goes to another worker. */
const EPISODE_GRACE_MS = 60000;

export interface TaskLoopOptions {
  /** what earlier runs of this run directory counted (a resume) */
  totals: { episodes: number; successes: number; seen: number };
  episodeTimeoutMs: number;
  log: Logger;
  publish: (kind: string, message: string) => void;
  /** how often to look for episodes past their worst case */
  staleCheckMs?: number;
  /** whether a message's key may speak for its worker id (src/run/speaker-check.ts); false: dropped */
  speaks?: (message: SpeakerClaim) => boolean;
  /** why collection is paused (a worker cannot write: a full disk), null when it is not */
  paused?: () => string | null;
}

export class TaskLoop {
  /** episodes finished and successful over the run (collection and eval), for status */
  readonly episodes: { done: number; success: number };
  /** trajectories sent to replay (collection episodes) over the run, for status */
  replaySeen: number;
  /** a stop: no episode is handed out any more */
  private stopping = false;
  private readonly staleTimer: NodeJS.Timeout;
  readonly done: Promise<void>;

  constructor(
    private readonly tasks: Channel<typeof Inbound.tasksToSupervisor>,
    private readonly queue: EpisodeQueue,
    private readonly o: TaskLoopOptions,
  ) {
    this.episodes = { done: o.totals.episodes, success: o.totals.successes };
    this.replaySeen = o.totals.seen;
    this.done = tasks
      .serve((inbound) => this.handle(inbound.message, inbound.peer))
      .catch((error: Error) => {
        o.log.error(`tasks loop failed: ${error.message}`);
      });
    this.staleTimer = setInterval(() => {
      const back = queue.requeueOlderThan(o.episodeTimeoutMs + EPISODE_GRACE_MS);
      if (back > 0) o.log.warn(`${back} episode(s) ran past ${o.episodeTimeoutMs} ms; requeued`);
    }, o.staleCheckMs ?? 5000);
    this.staleTimer.unref();
  }

  /** An env worker's process is gone: the episodes it held go back to the queue. */
  workerDied(workerId: string): void {
    const back = this.queue.requeueWorker(workerId);
    if (back > 0) {
      this.o.log.warn(`${workerId} died holding ${back} episode(s); they go back to the queue`);
      this.o.publish('requeue', `${back} episode(s) of ${workerId} requeued`);
    }
  }

  /** No more episodes for anyone: the queue closes and the stale check ends. */
  stop(): void {
    this.stopping = true;
    this.queue.close();
    clearInterval(this.staleTimer);
  }

  private async handle(
    message: ReturnType<typeof Inbound.tasksToSupervisor.parse>,
    peer: Buffer | null,
  ): Promise<void> {
    if (peer === null) return;
    // Not this worker's key: no answer, as to garbage (the sender learns nothing).
    if (this.o.speaks !== undefined && !this.o.speaks(message)) return;
    const ack = (episodeId: string) =>
      this.tasks
        .sendTo(peer, { type: 'result_ack', requestId: message.requestId, episodeId })
        .catch(() => undefined);
    if (message.type === 'episode_result') {
      if (this.queue.complete(message)) {
        this.episodes.done += 1;
        if (message.reward > 0) this.episodes.success += 1;
        if (message.split === 'train' && message.iteration > 0) this.replaySeen += 1;
      }
      await ack(message.episodeId);
      return;
    }
    if (message.type === 'episode_returned') {
      if (this.queue.giveBack(message.episodeId, message.workerId)) {
        this.o.log.warn(
          `${message.workerId} gave back ${message.episodeId} (${message.reason}); another worker gets it`,
        );
        this.o.publish('requeue', `${message.episodeId} of ${message.workerId} requeued: ${message.reason}`);
      }
      await ack(message.episodeId);
      return;
    }
    // Paused (a full disk): no new episode until the worker that could not write can again.
    const paused = this.o.paused?.() ?? null;
    const spec = this.stopping || paused !== null ? null : this.queue.next(message.workerId);
    if (spec === null) {
      await this.tasks
        .sendTo(peer, {
          type: 'no_task',
          requestId: message.requestId,
          retryAfterMs: paused === null ? 200 : 1000,
        })
        .catch(() => undefined);
      return;
    }
    await this.tasks
      .sendTo(peer, { type: 'task_assignment', requestId: message.requestId, ...spec })
      .catch((error: Error) => {
        this.o.log.warn(`episode ${spec.episodeId} for ${message.workerId} lost: ${error.message}`);
        this.queue.requeueWorker(message.workerId);
      });
  }
}
