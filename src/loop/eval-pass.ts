// One eval pass (`tti-run eval`): every given task once, greedily, then a summary.
import type { TaskRef } from '../curriculum/index.js';
import { mixSeeds } from '../util/index.js';
import type { EpisodeOutcome, EpisodeSpec } from './episode.js';
import { type EvalSummary, summarizeEpisodes } from './eval-summary.js';
import type { LoopDeps } from './tti-loop.js';

export interface EvalPassOptions {
  horizon: number;
  minTry: number;
  split: 'train' | 'test';
  temperature: number;
  /** the policy version the run serves (its checkpoint's) */
  policyVersion: number;
}

/** Resolves with the summary and every outcome, or null when the run is stopped first. */
export async function runEvalOnly(
  deps: Pick<LoopDeps, 'collector' | 'labels' | 'onPhase' | 'stopped' | 'runId'>,
  tasks: readonly TaskRef[],
  options: EvalPassOptions,
): Promise<(EvalSummary & { results: EpisodeOutcome[] }) | null> {
  deps.onPhase('eval', 0, options.horizon);
  const episodes: EpisodeSpec[] = tasks.map((task, i) => ({
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
  const results = await Promise.race([
    deps.collector.collect({ phase: 'eval', iteration: 0, policyVersion: options.policyVersion, episodes }),
    deps.stopped.then(() => null),
  ]);
  if (results === null) return null;
  deps.onPhase('done', 0, options.horizon);
  return { ...summarizeEpisodes(results, deps.labels), results };
}
