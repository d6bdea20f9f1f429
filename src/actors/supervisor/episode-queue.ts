// The episodes of one phase (an iteration's collection, or an eval), handed out to env workers as
// they ask (pull-based: a worker holds at most the episode it runs). An episode a worker held when
// its process died goes back to the front of the queue under the same episode id, so replay's
// dedup by id keeps a re-run from counting twice; a late result for an episode already done is
// ignored for the same reason.
import type { EpisodeSpec } from '../../loop/index.js';
import type { EpisodeResultMessage } from '../../protocol/index.js';

export type { EpisodeSpec };

interface Phase {
  waiting: EpisodeSpec[];
  /** episode id → the worker running it */
  running: Map<string, { spec: EpisodeSpec; workerId: string; since: number }>;
  results: Map<string, EpisodeResultMessage>;
  total: number;
  resolve: (results: EpisodeResultMessage[]) => void;
  order: string[];
}

export class EpisodeQueue {
  private phase: Phase | null = null;
  private closed = false;
  requeued = 0;

  /** Runs a phase: resolves with one result per episode, in the order given. */
  run(episodes: readonly EpisodeSpec[]): Promise<EpisodeResultMessage[]> {
    if (this.phase !== null) throw new Error('a phase is already running');
    return new Promise((resolve) => {
      if (episodes.length === 0) {
        resolve([]);
        return;
      }
      this.phase = {
        waiting: [...episodes],
        running: new Map(),
        results: new Map(),
        total: episodes.length,
        order: episodes.map((e) => e.episodeId),
        resolve: (results) => {
          this.phase = null;
          resolve(results);
        },
      };
    });
  }

  /** The next episode for a worker, or null when there is none right now. */
  next(workerId: string): EpisodeSpec | null {
    if (this.closed || this.phase === null) return null;
    const spec = this.phase.waiting.shift();
    if (spec === undefined) return null;
    this.phase.running.set(spec.episodeId, { spec, workerId, since: Date.now() });
    return spec;
  }

  /** Records a result; false when it is not one this phase is waiting for (late, duplicate). */
  complete(result: EpisodeResultMessage): boolean {
    const phase = this.phase;
    if (phase === null || phase.results.has(result.episodeId)) return false;
    const running = phase.running.get(result.episodeId);
    // An episode is running or waiting, never both: only a result for one not running (requeued
    // while its worker still ran it) scans the waiting list, not every result of a large phase.
    const waitingAt =
      running === undefined ? phase.waiting.findIndex((s) => s.episodeId === result.episodeId) : -1;
    if (running === undefined && waitingAt === -1) return false;
    phase.running.delete(result.episodeId);
    // A result for an episode that was requeued (its worker looked dead but was not) still counts.
    if (waitingAt !== -1) phase.waiting.splice(waitingAt, 1);
    phase.results.set(result.episodeId, result);
    if (phase.results.size === phase.total) {
      phase.resolve(phase.order.map((id) => phase.results.get(id)!));
    }
    return true;
  }

  /** Puts back what a dead worker held; returns how many episodes went back. */
  requeueWorker(workerId: string): number {
    const phase = this.phase;
    if (phase === null) return 0;
    const back = [...phase.running.values()].filter((r) => r.workerId === workerId);
    for (const r of back) {
      phase.running.delete(r.spec.episodeId);
      phase.waiting.unshift(r.spec);
    }
    this.requeued += back.length;
    return back.length;
  }

  /** Puts back one episode its worker cannot run (its host is down); false if it was not running there. */
  giveBack(episodeId: string, workerId: string): boolean {
    const running = this.phase?.running.get(episodeId);
    if (this.phase === null || running === undefined || running.workerId !== workerId) return false;
    this.phase.running.delete(episodeId);
    this.phase.waiting.unshift(running.spec);
    this.requeued += 1;
    return true;
  }

  /** Puts back episodes running for longer than `ms` (a worker that hangs without dying). */
  requeueOlderThan(ms: number): number {
    const phase = this.phase;
    if (phase === null) return 0;
    const now = Date.now();
    const back = [...phase.running.values()].filter((r) => now - r.since > ms);
    for (const r of back) {
      phase.running.delete(r.spec.episodeId);
      phase.waiting.push(r.spec);
    }
    this.requeued += back.length;
    return back.length;
  }

  get progress(): { done: number; total: number } {
    if (this.phase === null) return { done: 0, total: 0 };
    return { done: this.phase.results.size, total: this.phase.total };
  }

  /** No more episodes are handed out (a stop); the phase in progress never resolves. */
  close(): void {
    this.closed = true;
  }
}
