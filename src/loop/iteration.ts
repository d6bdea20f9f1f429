// What TTI's two loops (tti-loop.ts, synchronous; async-tti-loop.ts, rollout.max_policy_lag ≥ 1)
// share of an iteration: how an episode is specified, how tasks are drawn, what a collection adds
// to the run's totals, and the metrics row. The loops differ only in when these happen.
import type { Config } from '../config/index.js';
import { evalSubset, finalTemperature, horizonAt, type TaskRef, temperatureAt } from '../curriculum/index.js';
import { mixSeeds, SeededRandom } from '../util/index.js';
import type { Collector } from './collector.js';
import type { EpisodeOutcome, EpisodeSpec } from './episode.js';
import { summarizeEpisodes, type TaskLabels, templateIn } from './eval-summary.js';
import type { Learner, LearnerReport } from './learner.js';
import type { LoopState } from './loop-state.js';
import { episodeTime, type MetricsRow, tokenTotals } from './metrics-row.js';
import { summarizeStrategies } from './strategy-summary.js';

export const STOPPED = Symbol('stopped');
export type Stopped = typeof STOPPED;

/** What both loops start from: the run's state, its task stream, the eval subset, a stop race. */
export function loopStart(
  o: { config: Config; testTasks: readonly TaskRef[]; labels: TaskLabels; stopped: Promise<void> },
  initial: LoopState,
) {
  const state: LoopState = structuredClone(initial);
  const random = new SeededRandom(o.config.seed);
  random.state = state.randomState;
  const evalTasks = evalSubset(o.testTasks, o.config.eval_tasks, o.config.seed, o.config.eval_sampling, (t) =>
    templateIn(o.labels, t),
  );
  const untilStopped = <T>(p: Promise<T>): Promise<T | Stopped> =>
    Promise.race([p, o.stopped.then((): Stopped => STOPPED)]);
  return { state, random, evalTasks, untilStopped };
}

/**
 * Trains `iteration` (on nothing older than `minPolicyVersion`, when given); a newly published
 * version counts once the collector's episodes run under it.
 */
export async function trainAndServe(
  learner: Learner,
  collector: Collector,
  state: LoopState,
  iteration: number,
  untilStopped: <T>(p: Promise<T>) => Promise<T | Stopped>,
  minPolicyVersion?: number,
): Promise<LearnerReport | null | Stopped> {
  const trained = await untilStopped(
    minPolicyVersion === undefined
      ? learner.train(iteration, state.policyVersion + 1)
      : learner.train(iteration, state.policyVersion + 1, minPolicyVersion),
  );
  if (trained === STOPPED) return STOPPED;
  if (trained !== null && trained.policyVersion > state.policyVersion) {
    state.policyVersion = trained.policyVersion;
    const swapped = await untilStopped(collector.awaitPolicy(state.policyVersion));
    if (swapped === STOPPED) return STOPPED;
  }
  return trained;
}

export const scheduleOf = (config: Config) => ({ kind: 'list' as const, horizons: config.horizon_schedule });

export function episodeSpec(
  config: Config,
  runId: string,
  task: TaskRef,
  iteration: number,
  mode: 'collect' | 'eval',
  index: number,
): EpisodeSpec {
  return {
    // Numbered and seeded by the episode's place in its phase, not by a run-wide counter (which a
    // resume restarts), so a resumed run samples and orders its episodes (replay's episode order)
    // as an uninterrupted one would.
    episodeId: `${runId}-i${iteration}-${mode === 'collect' ? 'c' : 'e'}${index + 1}`,
    seed: mixSeeds(config.seed, iteration, mode === 'collect' ? 0 : 1, index),
    taskFile: task.file,
    taskId: task.id,
    horizon: mode === 'collect' ? horizonAt(scheduleOf(config), iteration) : config.eval_horizon,
    minTry: mode === 'collect' ? config.min_try : config.eval_min_try,
    split: mode === 'collect' ? 'train' : 'test',
    iteration,
    greedy: mode === 'eval',
    temperature:
      mode === 'collect'
        ? temperatureAt(config.temperature, iteration)
        : finalTemperature(config.temperature),
    toReplay: mode === 'collect',
  };
}

/** Draws one iteration's `rollout_size` training tasks, uniformly (TTI). */
export function drawTasks(config: Config, trainTasks: readonly TaskRef[], random: SeededRandom): TaskRef[] {
  return Array.from(
    { length: config.rollout_size },
    () => trainTasks[Math.floor(random.next() * trainTasks.length)]!,
  );
}

/** What one collection counts. */
export interface Collected {
  outcomes: EpisodeOutcome[];
  envSteps: number;
  successes: number;
  kept: number;
}

/** Counts a collection and adds it to the run's totals. */
export function addCollection(state: LoopState, outcomes: EpisodeOutcome[]): Collected {
  const envSteps = outcomes.reduce((n, r) => n + r.steps, 0);
  const successes = outcomes.filter((r) => r.reward > 0).length;
  const kept = outcomes.filter((r) => r.kept).length;
  state.totals.envSteps += envSteps;
  state.totals.episodes += outcomes.length;
  state.totals.successes += successes;
  state.totals.seen += outcomes.length;
  state.totals.kept += kept;
  return { outcomes, envSteps, successes, kept };
}

/** An eval's part of the row; its episodes count in the run's totals. */
export function addEval(
  config: Config,
  state: LoopState,
  evaluated: readonly EpisodeOutcome[],
  labels: TaskLabels,
): NonNullable<MetricsRow['eval']> {
  state.totals.episodes += evaluated.length;
  state.totals.successes += evaluated.filter((r) => r.reward > 0).length;
  return {
    ...summarizeEpisodes(evaluated, labels),
    horizon: config.eval_horizon,
    minTry: config.eval_min_try,
  };
}

export interface RowParts {
  iteration: number;
  horizon: number;
  collected: Collected;
  evalRow: MetricsRow['eval'];
  evaluated: readonly EpisodeOutcome[];
  trained: LearnerReport | null;
  collectMs: number;
  wallMs: number;
  restarts: number;
  requeued: number;
}

export function metricsRow(config: Config, state: LoopState, p: RowParts): MetricsRow {
  const { collected, trained } = p;
  const strategies = summarizeStrategies(collected.outcomes);
  const episodes = collected.outcomes.length;
  const row: MetricsRow = {
    iteration: p.iteration,
    horizon: p.horizon,
    temperature: temperatureAt(config.temperature, p.iteration),
    policyVersion: state.policyVersion,
    envSteps: collected.envSteps,
    totalEnvSteps: state.totals.envSteps,
    train: {
      episodes,
      success: episodes > 0 ? collected.successes / episodes : 0,
      meanSteps: episodes > 0 ? collected.envSteps / episodes : 0,
      kept: collected.kept,
      ...(strategies === null ? {} : { strategies }),
    },
    eval: p.evalRow,
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
    envStepsPerSec: p.collectMs > 0 ? collected.envSteps / (p.collectMs / 1000) : 0,
    learnerSamplesPerSec: trained?.samplesPerSec ?? null,
    restarts: p.restarts,
    requeued: p.requeued,
    wallMs: p.wallMs,
    at: new Date().toISOString(),
  };
  const tokens = tokenTotals([...collected.outcomes, ...p.evaluated]);
  if (tokens !== undefined) row.tokens = tokens;
  const time = episodeTime([...collected.outcomes, ...p.evaluated], p.wallMs);
  if (time !== undefined) row.time = time;
  return row;
}

/** The iteration's closing log line. */
export function iterationLine(row: MetricsRow, collected: Collected): string {
  const evalText = row.eval ? `, eval success ${(row.eval.success * 100).toFixed(1)}%` : '';
  return (
    `iteration ${row.iteration} done: train success ${(row.train.success * 100).toFixed(1)}% ` +
    `(${collected.successes}/${collected.outcomes.length}, ${collected.kept} kept)${evalText}, policy v${row.policyVersion}, ` +
    `${row.envStepsPerSec.toFixed(1)} env steps/s`
  );
}

/** The collect event's text. */
export function collectText(config: Config, iteration: number, horizon: number): string {
  return (
    `iteration ${iteration}: collecting ${config.rollout_size} episodes at horizon ${horizon}` +
    (typeof config.temperature === 'number'
      ? ''
      : `, temperature ${temperatureAt(config.temperature, iteration)}`)
  );
}
