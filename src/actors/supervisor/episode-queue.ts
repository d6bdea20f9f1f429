// The episodes of the phases in progress (an iteration's collection, or an eval), handed out to env
// workers as they ask (pull-based: a worker holds at most the episode it runs). Synchronous TTI runs
// one phase at a time; the asynchronous loop (rollout.max_policy_lag ≥ 1) queues the next
// iterations' collections behind the current one and runs an eval beside them, on its own share of
// the env workers, so collection never stops for it. An episode a worker held when its process died
// goes back to the front of its phase under the same episode id, so replay's dedup by id keeps a
// re-run from counting twice; a late result for an episode already done is ignored for the same
// reason.
import type { SiteClaim } from '../../envs/index.js';
import type { EpisodeSpec } from '../../loop/index.js';
import type { EpisodeResultMessage } from '../../protocol/index.js';
import { nextStartable } from './site-order.js';

export type { EpisodeSpec };

export type PhaseKind = 'collect' | 'eval';

interface Phase {
  kind: PhaseKind;
  waiting: EpisodeSpec[];
  /** episode id → the worker running it */
  running: Map<string, { spec: EpisodeSpec; workerId: string; since: number }>;
  results: Map<string, EpisodeResultMessage>;
  total: number;
  resolve: (results: EpisodeResultMessage[]) => void;
  order: string[];
}

export class EpisodeQueue {
  /** in the order they were queued: collections are handed out oldest first */
  private phases: Phase[] = [];
  private closed = false;
  requeued = 0;
  /** every result a phase counted, as it arrives (the streaming collector's outcomes) */
  onResult: (result: EpisodeResultMessage) => void = () => undefined;

  /**
   * @param evalShare how many env workers may run eval episodes at once while collection has
   *   episodes waiting (a worker with no collection episode to run takes an eval one anyway)
   * @param claimOf the sites an episode holds, when tasks share their hosts (site-order.ts)
   */
  constructor(
    private readonly evalShare = Number.POSITIVE_INFINITY,
    private readonly claimOf?: (spec: EpisodeSpec) => SiteClaim | null,
  ) {}

  /** Queues a phase: resolves with one result per episode, in the order given. */
  run(episodes: readonly EpisodeSpec[], kind: PhaseKind = 'collect'): Promise<EpisodeResultMessage[]> {
    return new Promise((resolve) => {
      if (episodes.length === 0) {
        resolve([]);
        return;
      }
      const phase: Phase = {
        kind,
        waiting: [...episodes],
        running: new Map(),
        results: new Map(),
        total: episodes.length,
        order: episodes.map((e) => e.episodeId),
        resolve: (results) => {
          this.phases = this.phases.filter((p) => p !== phase);
          resolve(results);
        },
      };
      this.phases.push(phase);
    });
  }

  /** The next episode for a worker, or null when there is none right now. */
  next(workerId: string): EpisodeSpec | null {
    if (this.closed) return null;
    const phase = this.phaseFor();
    if (phase === undefined) return null;
    // a site-changing task holds its sites alone, across every phase in progress
    const running = this.phases.flatMap((p) => [...p.running.values()].map((r) => r.spec));
    const at = this.claimOf ? nextStartable(phase.waiting, running, this.claimOf) : 0;
    const spec = at < 0 ? undefined : phase.waiting.splice(at, 1)[0];
    if (spec === undefined) return null;
    phase.running.set(spec.episodeId, { spec, workerId, since: Date.now() });
    return spec;
  }

  /** An eval below its share first, then the oldest collection, then any eval. */
  private phaseFor(): Phase | undefined {
    const waiting = this.phases.filter((p) => p.waiting.length > 0);
    const evals = waiting.filter((p) => p.kind === 'eval');
    const evalRunning = this.phases.filter((p) => p.kind === 'eval').reduce((n, p) => n + p.running.size, 0);
    if (evals.length > 0 && evalRunning < this.evalShare) return evals[0];
    return waiting.find((p) => p.kind === 'collect') ?? evals[0];
  }

  /** The phase an episode belongs to, if one in progress does. */
  private phaseOf(episodeId: string): Phase | undefined {
    return this.phases.find(
      (p) => p.running.has(episodeId) || p.waiting.some((s) => s.episodeId === episodeId),
    );
  }

  /** Records a result; false when it is not one a phase is waiting for (late, duplicate). */
  complete(result: EpisodeResultMessage): boolean {
    const phase = this.phaseOf(result.episodeId);
    if (phase === undefined || phase.results.has(result.episodeId)) return false;
    const running = phase.running.get(result.episodeId);
    // An episode is running or waiting, never both: only a result for one not running (requeued
    // while its worker still ran it) scans the waiting list, not every result of a large phase.
    const waitingAt =
      running === undefined ? phase.waiting.findIndex((s) => s.episodeId === result.episodeId) : -1;
    phase.running.delete(result.episodeId);
    // A result for an episode that was requeued (its worker looked dead but was not) still counts.
    if (waitingAt !== -1) phase.waiting.splice(waitingAt, 1);
    phase.results.set(result.episodeId, result);
    this.onResult(result);
    if (phase.results.size === phase.total) {
      phase.resolve(phase.order.map((id) => phase.results.get(id)!));
    }
    return true;
  }

  /** Puts back what a dead worker held; returns how many episodes went back. */
  requeueWorker(workerId: string): number {
    let back = 0;
    for (const phase of this.phases) {
      const held = [...phase.running.values()].filter((r) => r.workerId === workerId);
      for (const r of held) {
        phase.running.delete(r.spec.episodeId);
        phase.waiting.unshift(r.spec);
      }
      back += held.length;
    }
    this.requeued += back;
    return back;
  }

  /** Puts back one episode its worker cannot run (its host is down); false if it was not running there. */
  giveBack(episodeId: string, workerId: string): boolean {
    const phase = this.phases.find((p) => p.running.get(episodeId)?.workerId === workerId);
    const running = phase?.running.get(episodeId);
    if (phase === undefined || running === undefined) return false;
    phase.running.delete(episodeId);
    phase.waiting.unshift(running.spec);
    this.requeued += 1;
    return true;
  }

  /** Puts back episodes running for longer than `ms` (a worker that hangs without dying). */
  requeueOlderThan(ms: number): number {
    const now = Date.now();
    let back = 0;
    for (const phase of this.phases) {
      const stale = [...phase.running.values()].filter((r) => now - r.since > ms);
      for (const r of stale) {
        phase.running.delete(r.spec.episodeId);
        phase.waiting.push(r.spec);
      }
      back += stale.length;
    }
    this.requeued += back;
    return back;
  }

  /** How far the oldest phase in progress is (the current iteration's collection, or the eval). */
  get progress(): { done: number; total: number } {
    const phase = this.phases[0];
    if (phase === undefined) return { done: 0, total: 0 };
    return { done: phase.results.size, total: phase.total };
  }

  /** No more episodes are handed out (a stop); the phases in progress never resolve. */
  close(): void {
    this.closed = true;
  }
}
