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
} from '../../src/loop/index.js';

export interface LoopRecord {
  /** every call the loop made, in order, in a short form */
  calls: string[];
  requests: CollectRequest[];
  checkpoints: LoopState[];
  rows: MetricsRow[];
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
  o: { publishes?: (iteration: number) => boolean } = {},
): Learner {
  let version = 0;
  return {
    train(iteration, policyVersion) {
      record.calls.push(`train i${iteration} v${policyVersion}`);
      if (o.publishes?.(iteration) ?? true) version = policyVersion;
      return Promise.resolve({
        policyVersion: version,
        trajectories: 3,
        samples: 12,
        skipped: 0,
        loss: 1 / iteration,
        samplesPerSec: null,
        durationMs: 1,
      });
    },
  };
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

export const newRecord = (): LoopRecord => ({ calls: [], requests: [], checkpoints: [], rows: [] });
