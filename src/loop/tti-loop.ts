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
import { evalSubset, finalTemperature, horizonAt, type TaskRef, temperatureAt } from '../curriculum/index.js';
import type { Logger } from '../log/index.js';
import { mixSeeds, SeededRandom } from '../util/index.js';
import type { Collector, CollectRequest } from './collector.js';
import type { EpisodeOutcome, EpisodeSpec } from './episode.js';
import { summarizeEpisodes, type TaskLabels, templateIn } from './eval-summary.js';
import type { Learner } from './learner.js';
import type { LoopState, Phase } from './loop-state.js';
import { episodeTime, type MetricsRow, tokenTotals } from './metrics-row.js';
import { summarizeSearches } from './search-summary.js';

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

const STOPPED = Symbol('stopped');

export async function runTtiLoop(deps: LoopDeps, initial: LoopState): Promise<'completed' | 'stopped'> {
  const { config, log, collector, learner } = deps;
  const state: LoopState = structuredClone(initial);
  const random = new SeededRandom(config.seed);
  random.state = state.randomState;
  const schedule = { kind: 'list' as const, horizons: config.horizon_schedule };
  const evalTasks = evalSubset(deps.testTasks, config.eval_tasks, config.seed, config.eval_sampling, (t) =>
    templateIn(deps.labels, t),
  );
  const untilStopped = <T>(p: Promise<T>): Promise<T | typeof STOPPED> =>
    Promise.race([p, deps.stopped.then((): typeof STOPPED => STOPPED)]);
  const spec = (task: TaskRef, iteration: number, mode: 'collect' | 'eval', index: number): EpisodeSpec => ({
    // Numbered and seeded by the episode's place in its phase, not by a run-wide counter (which a
    // resume restarts), so a resumed run samples and orders its episodes (replay's episode order)
    // as an uninterrupted one would.
    episodeId: `${deps.runId}-i${iteration}-${mode === 'collect' ? 'c' : 'e'}${index + 1}`,
    seed: mixSeeds(config.seed, iteration, mode === 'collect' ? 0 : 1, index),
    taskFile: task.file,
    taskId: task.id,
    horizon: mode === 'collect' ? horizonAt(schedule, iteration) : config.eval_horizon,
    minTry: mode === 'collect' ? config.min_try : config.eval_min_try,
    split: mode === 'collect' ? 'train' : 'test',
    iteration,
    greedy: mode === 'eval',
    temperature:
      mode === 'collect'
        ? temperatureAt(config.temperature, iteration)
        : finalTemperature(config.temperature),
    toReplay: mode === 'collect',
  });

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
        episodes: tasks.map((t, i) => spec(t, iteration, phase, i)),
      }),
    );

  const drawTasks = (): TaskRef[] =>
    Array.from(
      { length: config.rollout_size },
      () => deps.trainTasks[Math.floor(random.next() * deps.trainTasks.length)]!,
    );

  for (let iteration = state.iteration + 1; iteration <= config.iterations; iteration++) {
    const started = Date.now();
    const requeuedBefore = collector.requeued;
    const horizon = horizonAt(schedule, iteration);
    state.horizon = horizon;

    // 1. draw
    deps.onPhase('collect', iteration, horizon);
    deps.event(
      'collect',
      `iteration ${iteration}: collecting ${config.rollout_size} episodes at horizon ${horizon}` +
        (typeof config.temperature === 'number'
          ? ''
          : `, temperature ${temperatureAt(config.temperature, iteration)}`),
    );
    const draws = drawTasks();

    // 2. collect (replay filters: `kept`)
    const collected = await runPhase('collect', iteration, draws);
    if (collected === STOPPED) return 'stopped';
    const collectMs = Date.now() - started;
    const envSteps = collected.reduce((n, r) => n + r.steps, 0);
    const successes = collected.filter((r) => r.reward > 0).length;
    const kept = collected.filter((r) => r.kept).length;
    const searches = summarizeSearches(collected);
    state.totals.envSteps += envSteps;
    state.totals.episodes += collected.length;
    state.totals.successes += successes;
    state.totals.seen += collected.length;
    state.totals.kept += kept;

    // 3. learn, then publish: the next episodes run under the new version
    deps.onPhase('train', iteration, horizon);
    const trained = await untilStopped(learner.train(iteration, state.policyVersion + 1));
    if (trained === STOPPED) return 'stopped';
    if (trained !== null && trained.policyVersion > state.policyVersion) {
      state.policyVersion = trained.policyVersion;
      const swapped = await untilStopped(collector.awaitPolicy(state.policyVersion));
      if (swapped === STOPPED) return 'stopped';
    }

    // 4. eval
    let evalRow: MetricsRow['eval'] = null;
    let evaluatedResults: EpisodeOutcome[] = [];
    if (iteration % config.eval_every === 0 || iteration === config.iterations) {
      deps.onPhase('eval', iteration, config.eval_horizon);
      deps.event('eval', `iteration ${iteration}: eval on ${evalTasks.length} test tasks`);
      const evaluated = await runPhase('eval', iteration, evalTasks);
      if (evaluated === STOPPED) return 'stopped';
      evaluatedResults = evaluated;
      state.totals.episodes += evaluated.length;
      state.totals.successes += evaluated.filter((r) => r.reward > 0).length;
      evalRow = {
        ...summarizeEpisodes(evaluated, deps.labels),
        horizon: config.eval_horizon,
        minTry: config.eval_min_try,
      };
    }

    // 5. record: the metrics row, then the checkpoint of the run's state
    const wallMs = Date.now() - started;
    const row: MetricsRow = {
      iteration,
      horizon,
      temperature: temperatureAt(config.temperature, iteration),
      policyVersion: state.policyVersion,
      envSteps,
      totalEnvSteps: state.totals.envSteps,
      train: {
        episodes: collected.length,
        success: collected.length > 0 ? successes / collected.length : 0,
        meanSteps: collected.length > 0 ? envSteps / collected.length : 0,
        kept,
        ...(searches === null ? {} : { search: searches }),
      },
      eval: evalRow,
      replay: { seen: state.totals.seen, kept: state.totals.kept },
      learner:
        trained === null
          ? null
          : {
              loss: trained.loss,
              trajectories: trained.trajectories,
              samples: trained.samples,
              skipped: trained.skipped,
              samplesPerSec: trained.samplesPerSec,
              durationMs: trained.durationMs,
            },
      envStepsPerSec: collectMs > 0 ? envSteps / (collectMs / 1000) : 0,
      learnerSamplesPerSec: trained?.samplesPerSec ?? null,
      restarts: await deps.restarts(),
      requeued: collector.requeued - requeuedBefore,
      wallMs,
      at: new Date().toISOString(),
    };
    const tokens = tokenTotals([...collected, ...evaluatedResults]);
    if (tokens !== undefined) row.tokens = tokens;
    const time = episodeTime([...collected, ...evaluatedResults], wallMs);
    if (time !== undefined) row.time = time;
    deps.appendMetrics(row);
    state.iteration = iteration;
    state.randomState = random.state;
    deps.saveState(state);
    const evalText = evalRow ? `, eval success ${(evalRow.success * 100).toFixed(1)}%` : '';
    log.info(
      `iteration ${iteration} done: train success ${(row.train.success * 100).toFixed(1)}% ` +
        `(${successes}/${collected.length}, ${kept} kept)${evalText}, policy v${state.policyVersion}, ` +
        `${row.envStepsPerSec.toFixed(1)} env steps/s`,
    );
    deps.event('iteration', `iteration ${iteration} done${evalText}`);
    if (config.budget_env_steps !== null && state.totals.envSteps >= config.budget_env_steps) {
      log.info(`env-step budget reached (${state.totals.envSteps} ≥ ${config.budget_env_steps})`);
      break;
    }
  }
  deps.onPhase('done', state.iteration, state.horizon);
  return 'completed';
}
