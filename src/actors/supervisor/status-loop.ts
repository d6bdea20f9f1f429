// The status socket's loop, the run's API for the CLI: a snapshot for anyone who can reach the
// socket; a stop or a fault only with the run's token (compared in constant time), which only the
// run's owner can read. It composes the snapshot from the run actor, the workers and the task loop,
// and keeps the one piece of state only status shows: the phase the run is in.
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from '../../log/index.js';
import type { LiveLag, Phase } from '../../loop/index.js';
import type {
  Channel,
  Fault,
  Inbound,
  RejectedFrames,
  StatusSnapshot,
  WorkerSnapshot,
} from '../../protocol/index.js';
import type { EpisodeQueue } from './episode-queue.js';
import type { RunView } from './run-actor.js';
import type { TaskLoop } from './task-loop.js';

/** Where the snapshot's parts come from. */
export interface StatusSources {
  runId: string;
  startedAt: number;
  /** iterations the run is set to do (0 for an eval) */
  iterations: number;
  run(): Promise<RunView>;
  workers(): Promise<WorkerSnapshot[]>;
  rejected: RejectedFrames;
  queue: Pick<EpisodeQueue, 'progress'>;
  tasks: Pick<TaskLoop, 'episodes' | 'replaySeen'>;
  /** trajectories replay kept over the run before this start (until replay reports its own count) */
  keptBefore(): number;
  /** why collection is paused (a full disk), null when it is not */
  paused?: () => string | null;
  /** a run that listens for remote workers: where, how many are expected, refusals (the workers' too) */
  remote?: (workers: readonly WorkerSnapshot[]) => NonNullable<StatusSnapshot['remote']>;
}

/** What the run does on a request that carried its token. */
export interface StatusControl {
  stop(): void;
  /** injects a fault into a worker; null when the run has no such worker */
  fault(workerId: string, fault: Fault): Promise<string | null>;
}

function tokensMatch(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Status and control requests answered at once; past this the loop waits (a flood stays bounded). */
const STATUS_IN_FLIGHT = 8;

export class StatusLoop {
  /** what the current iteration is doing */
  phase: Phase = 'starting';
  /** the asynchronous loop's policy lag (null: the synchronous loop, or none yet) */
  lag: LiveLag | null = null;
  readonly done: Promise<void>;

  constructor(
    private readonly status: Channel<typeof Inbound.statusToSupervisor>,
    private readonly token: { value: string; file: string },
    private readonly sources: StatusSources,
    private readonly control: StatusControl,
    private readonly log: Logger,
  ) {
    // Each request is answered on its own: a stop must not wait behind a snapshot that waits on a
    // busy actor, and a request that fails is logged while the socket goes on serving. Past
    // STATUS_IN_FLIGHT at once the loop waits for the newest, so a flood of requests is bounded.
    let inFlight = 0;
    this.done = status
      .serve((inbound) => {
        inFlight += 1;
        const handled = this.handle(inbound.message, inbound.peer)
          .catch((error: Error) => {
            log.error(`status: a ${inbound.message.type} failed: ${error.message}`);
          })
          .finally(() => {
            inFlight -= 1;
          });
        return inFlight > STATUS_IN_FLIGHT ? handled : undefined;
      })
      .catch((error: Error) => {
        log.error(`status loop failed: ${error.message}`);
      });
  }

  async snapshot(): Promise<StatusSnapshot> {
    const s = this.sources;
    const run = await s.run();
    const workers = await s.workers();
    const replay = workers.find((w) => w.role === 'replay');
    const backendOf = workers.find((w) => w.role === 'inference' && w.labels.backend !== undefined);
    return {
      runId: s.runId,
      state: run.state,
      reason: run.reason,
      iteration: run.iteration,
      policyVersion: run.policyVersion,
      horizon: run.horizon,
      startedAt: s.startedAt,
      uptimeMs: Date.now() - s.startedAt,
      rejectedFrames: s.rejected.total,
      workers,
      iterations: s.iterations,
      phase: this.phase,
      phaseProgress: s.queue.progress,
      replay: { seen: s.tasks.replaySeen, kept: replay?.counters.kept ?? s.keptBefore() },
      episodes: s.tasks.episodes,
      backend: backendOf?.labels.backend ?? null,
      paused: s.paused?.() ?? null,
      ...(this.lag !== null ? { lag: this.lag } : {}),
      ...(s.remote ? { remote: s.remote(workers) } : {}),
    };
  }

  private async handle(
    message: ReturnType<typeof Inbound.statusToSupervisor.parse>,
    peer: Buffer | null,
  ): Promise<void> {
    if (peer === null) return;
    const reply = async (body: object) => this.status.sendTo(peer, body).catch(() => undefined);
    if (message.type === 'status_request') {
      await reply({ type: 'status_reply', snapshot: await this.snapshot() });
      return;
    }
    if (!tokensMatch(message.token, this.token.value)) {
      this.log.warn(`refused a ${message.type}: wrong run token`);
      await reply({
        type: 'control_reply',
        ok: false,
        message: `refused: ${message.type} needs this run's token (the file ${this.token.file}, readable by the run's owner)`,
      });
      return;
    }
    if (message.type === 'stop_request') {
      await reply({ type: 'control_reply', ok: true, message: 'stopping' });
      this.control.stop();
      return;
    }
    const said = await this.control.fault(message.workerId, message.fault);
    await reply(
      said === null
        ? { type: 'control_reply', ok: false, message: `no worker '${message.workerId}'` }
        : { type: 'control_reply', ok: true, message: said },
    );
  }
}
