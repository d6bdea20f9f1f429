// TTI's outer loop, read top to bottom (TTI's scripts/webarena_train.sh + onpolicy_train_loop.py):
//
//   for each iteration i:
//     1. draw:    `rollout_size` training tasks, uniformly with replacement;
//     2. collect: run them at the curriculum's horizon h_i with the sampling policy; every
//                 trajectory goes to replay, which keeps (filters) the successful ones (reward 1,
//                 answer not N/A) durably before the episode counts;
//     3. learn:   the learner trains on a sample of the kept trajectories and publishes policy
//                 version i; the collector swaps it in before it runs another episode;
//     4. eval:    every `eval_every` iterations and at the last, a fixed subset of the test split at
//                 the test horizon with `eval_min_try`, acting greedily;
//     5. record:  one row of metrics.jsonl, then the run state (iteration, RNG, counters) is saved,
//                 so a resumed run starts at i+1 with the same task stream.
//
// It knows two seams, a Collector (collector.ts) and a Learner (learner.ts), and nothing of the
// processes behind them.
import type { Config } from '../config/index.js';
import { horizonAt, type TaskRef } from '../curriculum/index.js';
import type { Logger } from '../log/index.js';
import type { Collector, CollectRequest } from './collector.js';
import type { EpisodeOutcome } from './episode.js';
import type { TaskLabels } from './eval-summary.js';
import {
  addCollection,
  addEval,
  collectText,
  drawTasks,
  episodeSpec,
  iterationLine,
  loopStart,
  metricsRow,
  STOPPED,
  scheduleOf,
  trainAndServe,
} from './iteration.js';
import type { Learner } from './learner.js';
import type { LoopState, Phase } from './loop-state.js';
import type { MetricsRow } from './metrics-row.js';

export interface LoopDeps {
  config: Config;
  log: Logger;
  runId: string;
  trainTasks: readonly TaskRef[];
  testTasks: readonly TaskRef[];
  labels: TaskLabels;
  collector: Collector;
  learner: Learner;
  /** worker restarts so far, for the metrics row */
  restarts(): Promise<number>;
  onPhase(phase: Phase, iteration: number, horizon: number): void;
  /** checkpoints the run's state after a completed iteration */
  saveState(state: LoopState): void;
  appendMetrics(row: MetricsRow): void;
  /** resolves when the run is asked to stop; the loop then returns at the next await */
  stopped: Promise<void>;
  event(kind: string, message: string): void;
}

export async function runTtiLoop(deps: LoopDeps, initial: LoopState): Promise<'completed' | 'stopped'> {
  const { config, log, collector, learner } = deps;
  const { state, random, evalTasks, untilStopped } = loopStart(deps, initial);

  // A phase's episodes run under the newest policy version the loop has published.
  const runPhase = (
    phase: CollectRequest['phase'],
    iteration: number,
    tasks: readonly TaskRef[],
  ): Promise<EpisodeOutcome[] | typeof STOPPED> =>
    untilStopped(
      collector.collect({
        phase,
        iteration,
        policyVersion: state.policyVersion,
        episodes: tasks.map((t, i) => episodeSpec(config, deps.runId, t, iteration, phase, i)),
      }),
    );

  for (let iteration = state.iteration + 1; iteration <= config.iterations; iteration++) {
    const started = Date.now();
    const requeuedBefore = collector.requeued;
    const horizon = horizonAt(scheduleOf(config), iteration);
    state.horizon = horizon;

    // 1. draw
    deps.onPhase('collect', iteration, horizon);
    deps.event('collect', collectText(config, iteration, horizon));
    const draws = drawTasks(config, deps.trainTasks, random);

    // 2. collect (replay filters: `kept`)
    const outcomes = await runPhase('collect', iteration, draws);
    if (outcomes === STOPPED) return 'stopped';
    const collectMs = Date.now() - started;
    const collected = addCollection(state, outcomes);

    // 3. learn, then publish: the next episodes run under the new version
    deps.onPhase('train', iteration, horizon);
    const trained = await trainAndServe(learner, collector, state, iteration, untilStopped);
    if (trained === STOPPED) return 'stopped';

    // 4. eval
    let evalRow: MetricsRow['eval'] = null;
    let evaluated: EpisodeOutcome[] = [];
    if (iteration % config.eval_every === 0 || iteration === config.iterations) {
      deps.onPhase('eval', iteration, config.eval_horizon);
      deps.event('eval', `iteration ${iteration}: eval on ${evalTasks.length} test tasks`);
      const outcomes = await runPhase('eval', iteration, evalTasks);
      if (outcomes === STOPPED) return 'stopped';
      evaluated = outcomes;
      evalRow = addEval(config, state, evaluated, deps.labels);
    }

    // 5. record: the metrics row, then the checkpoint of the run's state
    const row = metricsRow(config, state, {
      iteration,
      horizon,
      collected,
      evalRow,
      evaluated,
      trained,
      collectMs,
      wallMs: Date.now() - started,
      restarts: await deps.restarts(),
      requeued: collector.requeued - requeuedBefore,
    });
    deps.appendMetrics(row);
    state.iteration = iteration;
    state.randomState = random.state;
    deps.saveState(state);
    log.info(iterationLine(row, collected));
    deps.event(
      'iteration',
      `iteration ${iteration} done${row.eval ? `, eval success ${(row.eval.success * 100).toFixed(1)}%` : ''}`,
    );
    if (config.budget_env_steps !== null && state.totals.envSteps >= config.budget_env_steps) {
      log.info(`env-step budget reached (${state.totals.envSteps} ≥ ${config.budget_env_steps})`);
      break;
    }
  }
  deps.onPhase('done', state.iteration, state.horizon);
  return 'completed';
}
