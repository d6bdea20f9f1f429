// TTI's outer loop, read top to bottom (TTI's scripts/webarena_train.sh + onpolicy_train_loop.py):
//
//   for each iteration i:
//     1. collect: `rollout_size` training tasks, drawn uniformly with replacement, run at the
//        curriculum's horizon h_i with the sampling policy; every trajectory goes to replay, which
//        keeps the successful ones (reward 1, answer not N/A) durably before the episode counts.
//     2. train:   the learner draws up to `actor_trajectories` kept trajectories (recency + site
//        balance), runs filtered BC, checkpoints, and publishes policy version i; inference swaps
//        it in between batches.
//     3. eval:    every `eval_every` iterations, a fixed subset of the test split at the test
//        horizon with `eval_min_try`, acting greedily.
//     4. one row of metrics.jsonl, then the run state (iteration, RNG, counters) is saved, so a
//        resumed run starts at i+1 with the same task stream.

import type { Config } from '../../config/index.js';
import {
  evalSubset,
  finalTemperature,
  horizonAt,
  type TaskRef,
  temperatureAt,
} from '../../curriculum/index.js';
import type { Logger } from '../../log/index.js';
import type { EpisodeResultMessage, TrainedMessage } from '../../protocol/index.js';
import { mixSeeds, SeededRandom } from '../../util/index.js';
import type { EpisodeQueue, EpisodeSpec } from './episode-queue.js';
import { type EvalSummary, summarizeEpisodes, type TaskLabels, templateIn } from './eval-summary.js';
import { type CollectSearchSummary, summarizeSearches } from './search-summary.js';

export type Phase = 'starting' | 'collect' | 'train' | 'eval' | 'done';

/** What survives a supervisor restart (state.json). */
export interface LoopState {
  /** the last completed iteration */
  iteration: number;
  policyVersion: number;
  horizon: number;
  randomState: number;
  totals: { envSteps: number; episodes: number; successes: number; seen: number; kept: number };
}

export interface MetricsRow {
  iteration: number;
  horizon: number;
  /** the collection's sampling temperature */
  temperature: number;
  policyVersion: number;
  envSteps: number;
  totalEnvSteps: number;
  train: {
    episodes: number;
    success: number;
    meanSteps: number;
    kept: number;
    /** collect.search: what the iteration's searches did (absent when none searched) */
    search?: CollectSearchSummary;
  };
  eval: (EvalSummary & { horizon: number; minTry: number }) | null;
  replay: { seen: number; kept: number };
  learner: {
    loss: number | null;
    trajectories: number;
    samples: number;
    skipped: number;
    samplesPerSec: number | null;
    durationMs: number;
  } | null;
  envStepsPerSec: number;
  learnerSamplesPerSec: number | null;
  restarts: number;
  requeued: number;
  wallMs: number;
  at: string;
  /** a chat policy's tokens this iteration (collection and eval episodes); absent for tfjs */
  tokens?: { prompt: number; completion: number; episodes: number; perEpisode: number };
}

/** Sums the token usage episodes reported; undefined when none did (a tfjs policy). */
export function tokenTotals(results: readonly EpisodeResultMessage[]): MetricsRow['tokens'] {
  const withUsage = results.filter((r) => r.usage !== undefined);
  if (withUsage.length === 0) return undefined;
  const prompt = withUsage.reduce((n, r) => n + (r.usage?.promptTokens ?? 0), 0);
  const completion = withUsage.reduce((n, r) => n + (r.usage?.completionTokens ?? 0), 0);
  return {
    prompt,
    completion,
    episodes: withUsage.length,
    perEpisode: (prompt + completion) / withUsage.length,
  };
}

export interface LoopDeps {
  config: Config;
  log: Logger;
  runId: string;
  trainTasks: readonly TaskRef[];
  testTasks: readonly TaskRef[];
  labels: TaskLabels;
  queue: EpisodeQueue;
  /** sends `train` to the learner and resolves with its answer (null: no learner in this run) */
  train(iteration: number, policyVersion: number): Promise<TrainedMessage | null>;
  /** resolves once every inference worker serves at least this version (or gives up, with a warning) */
  awaitInferenceVersion(policyVersion: number): Promise<void>;
  restarts(): Promise<number>;
  onPhase(phase: Phase, iteration: number, horizon: number): void;
  saveState(state: LoopState): void;
  appendMetrics(row: MetricsRow): void;
  /** resolves when the run is asked to stop; the loop then returns at the next await */
  stopped: Promise<void>;
  event(kind: string, message: string): void;
}

export function freshLoopState(config: Config): LoopState {
  return {
    iteration: 0,
    policyVersion: 0,
    horizon: horizonAt({ kind: 'list', horizons: config.horizon_schedule }, 1),
    randomState: new SeededRandom(config.seed).state,
    totals: { envSteps: 0, episodes: 0, successes: 0, seen: 0, kept: 0 },
  };
}

const STOPPED = Symbol('stopped');

export async function runTtiLoop(deps: LoopDeps, initial: LoopState): Promise<'completed' | 'stopped'> {
  const { config, log, queue } = deps;
  const state: LoopState = structuredClone(initial);
  const random = new SeededRandom(config.seed);
  random.state = state.randomState;
  const schedule = { kind: 'list' as const, horizons: config.horizon_schedule };
  const evalTasks = evalSubset(deps.testTasks, config.eval_tasks, config.seed, config.eval_sampling, (t) =>
    templateIn(deps.labels, t),
  );
  const untilStopped = <T>(p: Promise<T>): Promise<T | typeof STOPPED> =>
    Promise.race([p, deps.stopped.then((): typeof STOPPED => STOPPED)]);

  const runPhase = async (specs: EpisodeSpec[]): Promise<EpisodeResultMessage[] | typeof STOPPED> =>
    untilStopped(deps.queue.run(specs));

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

  for (let iteration = state.iteration + 1; iteration <= config.iterations; iteration++) {
    const started = Date.now();
    const requeuedBefore = queue.requeued;
    const horizon = horizonAt(schedule, iteration);
    state.horizon = horizon;

    // 1. collect
    deps.onPhase('collect', iteration, horizon);
    deps.event(
      'collect',
      `iteration ${iteration}: collecting ${config.rollout_size} episodes at horizon ${horizon}` +
        (typeof config.temperature === 'number'
          ? ''
          : `, temperature ${temperatureAt(config.temperature, iteration)}`),
    );
    const draws = Array.from(
      { length: config.rollout_size },
      () => deps.trainTasks[Math.floor(random.next() * deps.trainTasks.length)]!,
    );
    const collected = await runPhase(draws.map((t, i) => spec(t, iteration, 'collect', i)));
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

    // 2. train
    deps.onPhase('train', iteration, horizon);
    const trained = await untilStopped(deps.train(iteration, state.policyVersion + 1));
    if (trained === STOPPED) return 'stopped';
    if (trained !== null && trained.policyVersion > state.policyVersion) {
      state.policyVersion = trained.policyVersion;
      const swapped = await untilStopped(deps.awaitInferenceVersion(state.policyVersion));
      if (swapped === STOPPED) return 'stopped';
    }

    // 3. eval
    let evalRow: MetricsRow['eval'] = null;
    let evaluatedResults: EpisodeResultMessage[] = [];
    if (iteration % config.eval_every === 0 || iteration === config.iterations) {
      deps.onPhase('eval', iteration, config.eval_horizon);
      deps.event('eval', `iteration ${iteration}: eval on ${evalTasks.length} test tasks`);
      const evaluated = await runPhase(evalTasks.map((t, i) => spec(t, iteration, 'eval', i)));
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

    // 4. record
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
      requeued: queue.requeued - requeuedBefore,
      wallMs,
      at: new Date().toISOString(),
    };
    const tokens = tokenTotals([...collected, ...evaluatedResults]);
    if (tokens !== undefined) row.tokens = tokens;
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

/** One eval pass (`tti-run eval`): every given task once, greedily, then a summary. */
export async function runEvalOnly(
  deps: Pick<LoopDeps, 'queue' | 'labels' | 'onPhase' | 'stopped' | 'runId'>,
  tasks: readonly TaskRef[],
  options: { horizon: number; minTry: number; split: 'train' | 'test'; temperature: number },
): Promise<(EvalSummary & { results: EpisodeResultMessage[] }) | null> {
  deps.onPhase('eval', 0, options.horizon);
  const specs: EpisodeSpec[] = tasks.map((task, i) => ({
    episodeId: `${deps.runId}-eval-${i + 1}`,
    taskFile: task.file,
    taskId: task.id,
    horizon: options.horizon,
    minTry: options.minTry,
    split: options.split,
    iteration: 0,
    greedy: true,
    temperature: options.temperature,
    seed: mixSeeds(0, i + 1),
    toReplay: false,
  }));
  const results = await Promise.race([deps.queue.run(specs), deps.stopped.then(() => null)]);
  if (results === null) return null;
  deps.onPhase('done', 0, options.horizon);
  return { ...summarizeEpisodes(results, deps.labels), results };
}
