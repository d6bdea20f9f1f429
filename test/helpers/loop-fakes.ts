// In-memory stand-ins for the TTI loop's two seams (src/loop: Collector, Learner) and its run
// hooks, so a test drives the loop without processes. Each call lands in one list, in order.
import winston from 'winston';
import type { Config } from '../../src/config/index.js';
import type { TaskRef } from '../../src/curriculum/index.js';
import type {
  Collector,
  CollectRequest,
  EpisodeOutcome,
  EpisodeSpec,
  Learner,
  LoopDeps,
  LoopState,
  MetricsRow,
  StreamingCollector,
} from '../../src/loop/index.js';

export interface LoopRecord {
  /** every call the loop made, in order, in a short form */
  calls: string[];
  requests: CollectRequest[];
  checkpoints: LoopState[];
  rows: MetricsRow[];
  /** each train call's minPolicyVersion, in order (undefined: the whole buffer) */
  minPolicyVersions: (number | undefined)[];
}

export const tasks = (split: string, n: number): TaskRef[] =>
  Array.from({ length: n }, (_, i) => ({ file: `${split}.json`, id: String(i) }));

/** A collector that answers at once: an episode succeeds when `succeeds` says so, in `steps` steps. */
export function memoryCollector(
  record: LoopRecord,
  o: {
    succeeds?: (spec: EpisodeSpec) => boolean;
    steps?: number;
    hold?: (r: CollectRequest) => boolean;
  } = {},
): Collector {
  return {
    requeued: 0,
    collect(request) {
      record.requests.push(request);
      const horizons = [...new Set(request.episodes.map((e) => e.horizon))].join(',');
      record.calls.push(
        `${request.phase} i${request.iteration} h${horizons} v${request.policyVersion} ×${request.episodes.length}`,
      );
      if (o.hold?.(request)) return new Promise(() => undefined);
      return Promise.resolve(
        request.episodes.map((spec): EpisodeOutcome => {
          const success = o.succeeds?.(spec) ?? Number(spec.taskId) % 2 === 0;
          return {
            episodeId: spec.episodeId,
            taskFile: spec.taskFile,
            taskId: spec.taskId,
            reward: success ? 1 : 0,
            steps: o.steps ?? 2,
            kept: success && spec.toReplay,
            policyVersions: [request.policyVersion],
          };
        }),
      );
    },
    awaitPolicy(policyVersion) {
      record.calls.push(`serve v${policyVersion}`);
      return Promise.resolve();
    },
  };
}

/** A learner that publishes the version it is asked for, unless `publishes` says it had nothing to train on. */
export function memoryLearner(
  record: LoopRecord,
  o: {
    publishes?: (iteration: number) => boolean;
    until?: (iteration: number) => Promise<void>;
    /** what replay left out as older than the pass's minPolicyVersion (reported only when one is asked) */
    stale?: (iteration: number) => number;
  } = {},
): Learner {
  let version = 0;
  return {
    async train(iteration, policyVersion, minPolicyVersion) {
      record.calls.push(`train i${iteration} v${policyVersion}`);
      record.minPolicyVersions.push(minPolicyVersion);
      // a pass that lasts until the test says (what goes on meanwhile is what the test asserts)
      await o.until?.(iteration);
      if (o.publishes?.(iteration) ?? true) version = policyVersion;
      return {
        policyVersion: version,
        trajectories: 3,
        samples: 12,
        skipped: 0,
        loss: 1 / iteration,
        samplesPerSec: null,
        durationMs: 1,
        ...(minPolicyVersion === undefined ? {} : { stale: o.stale?.(iteration) ?? 0 }),
      };
    },
  };
}

/**
 * A streaming collector in memory: collection requests run one after another in the order queued,
 * an eval beside them (held until `evalGate` resolves); each episode is sampled under the version
 * served when it runs (`versionOf` may say otherwise), and ends a turn of the event loop later.
 * `collected(i)` resolves once iteration i's collection is done.
 */
export function streamingCollector(
  record: LoopRecord,
  o: {
    versionOf?: (spec: EpisodeSpec, served: number) => number;
    evalGate?: (request: CollectRequest) => Promise<void>;
  } = {},
): StreamingCollector & { collected(iteration: number): Promise<void> } {
  const listeners: ((outcome: EpisodeOutcome) => void)[] = [];
  const done = new Map<number, () => void>();
  const finished = new Map<number, Promise<void>>();
  const collected = (iteration: number) => {
    if (!finished.has(iteration)) finished.set(iteration, new Promise((r) => done.set(iteration, r)));
    return finished.get(iteration)!;
  };
  let served = 0;
  let tail: Promise<unknown> = Promise.resolve();
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const run = async (request: CollectRequest): Promise<EpisodeOutcome[]> => {
    await turn();
    const outcomes = request.episodes.map((spec): EpisodeOutcome => {
      const success = Number(spec.taskId) % 2 === 0;
      return {
        episodeId: spec.episodeId,
        taskFile: spec.taskFile,
        taskId: spec.taskId,
        reward: success ? 1 : 0,
        steps: 2,
        kept: success && spec.toReplay,
        // an episode pinned to a version (the asynchronous loop's eval) acts under it, as inference holds it
        policyVersions: [spec.policyVersion ?? o.versionOf?.(spec, served) ?? served],
      };
    });
    const versions = [...new Set(outcomes.flatMap((r) => r.policyVersions))].join(',');
    record.calls.push(`done ${request.phase} i${request.iteration} v${versions}`);
    for (const outcome of outcomes) for (const listener of listeners) listener(outcome);
    if (request.phase === 'collect') {
      void collected(request.iteration);
      done.get(request.iteration)?.();
    }
    return outcomes;
  };
  const collector: StreamingCollector & { collected(iteration: number): Promise<void> } = {
    requeued: 0,
    collected,
    collect: (request) => collector.submit(request),
    submit(request) {
      record.requests.push(request);
      const horizons = [...new Set(request.episodes.map((e) => e.horizon))].join(',');
      record.calls.push(
        `${request.phase} i${request.iteration} h${horizons} v${request.policyVersion} ×${request.episodes.length}`,
      );
      if (request.phase === 'eval')
        return (o.evalGate?.(request) ?? Promise.resolve()).then(() => run(request));
      const outcomes = tail.then(() => run(request));
      tail = outcomes;
      return outcomes;
    },
    onOutcome: (listener) => listeners.push(listener),
    awaitPolicy(policyVersion) {
      record.calls.push(`serve v${policyVersion}`);
      served = policyVersion;
      return Promise.resolve();
    },
  };
  return collector;
}

/** The loop's deps around the given seams; `stopped` resolves when the test says. */
export function loopDeps(
  config: Config,
  record: LoopRecord,
  seams: { collector: Collector; learner: Learner; stopped?: Promise<void> },
): LoopDeps {
  return {
    config,
    log: winston.createLogger({ silent: true }),
    runId: 'run',
    trainTasks: tasks('train', 10),
    testTasks: tasks('test', 6),
    labels: new Map(),
    collector: seams.collector,
    learner: seams.learner,
    restarts: () => Promise.resolve(0),
    onPhase: (phase, iteration, horizon) => record.calls.push(`phase ${phase} i${iteration} h${horizon}`),
    saveState: (state) => {
      record.calls.push(`checkpoint i${state.iteration} v${state.policyVersion}`);
      record.checkpoints.push(structuredClone(state));
    },
    appendMetrics: (row) => {
      record.calls.push(`metrics i${row.iteration}`);
      record.rows.push(row);
    },
    stopped: seams.stopped ?? new Promise(() => undefined),
    event: () => undefined,
  };
}

export const newRecord = (): LoopRecord => ({
  calls: [],
  requests: [],
  checkpoints: [],
  rows: [],
  minPolicyVersions: [],
});
