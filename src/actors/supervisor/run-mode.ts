// What a run does once its workers are up: TTI's training loop (src/loop: synchronous, or with
// collection running ahead of the learner when rollout.max_policy_lag ≥ 1), or one eval pass
// (`tti-run eval`), which writes eval.json. Either ends the run when it is done; a stop ends it first.
import { evalSubset, finalTemperature } from '../../curriculum/index.js';
import {
  type AsyncLoopDeps,
  type EvalSummary,
  runAsyncTtiLoop,
  runEvalOnly,
  runTtiLoop,
  templateIn,
} from '../../loop/index.js';
import { writeFileAtomic } from '../../run/index.js';
import type { RunStateStore } from './run-state.js';

/** What the run does: TTI's training loop, or one eval pass (`tti-run eval`). */
export type RunMode =
  | { kind: 'train' }
  | { kind: 'eval'; split: 'train' | 'test'; horizon: number; minTry: number; limit: number | null };

/** How a run that ran to its end ended. */
export interface RunEnd {
  reason: string;
  /** the eval's summary, in eval mode */
  evaluation: (EvalSummary & { episodes: number }) | null;
}

/** Runs the mode to its end (a RunEnd), or until the run is stopped (null). */
export async function runMode(
  mode: RunMode,
  deps: AsyncLoopDeps,
  state: RunStateStore,
  evalFile: string,
): Promise<RunEnd | null> {
  const { config } = deps;
  if (mode.kind === 'train') {
    const how =
      config.rollout.max_policy_lag === 0
        ? await runTtiLoop(deps, state.loop)
        : await runAsyncTtiLoop(deps, state.loop);
    if (how !== 'completed') return null;
    return {
      reason: `completed ${state.loop.iteration} of ${config.iterations} iterations`,
      evaluation: null,
    };
  }
  const summary = await runEvalOnly(
    deps,
    // --limit N: the seeded subset of N tasks (eval_sampling) that training's periodic eval uses.
    evalSubset(
      mode.split === 'train' ? deps.trainTasks : deps.testTasks,
      mode.limit ?? 0,
      config.seed,
      config.eval_sampling,
      (t) => templateIn(deps.labels, t),
    ),
    {
      ...mode,
      temperature: finalTemperature(config.temperature),
      policyVersion: state.loop.policyVersion,
    },
  );
  if (summary === null) return null;
  const { results: _results, ...evaluation } = summary;
  writeFileAtomic(evalFile, `${JSON.stringify(summary, null, 2)}\n`);
  return { reason: `evaluated ${summary.episodes} episodes`, evaluation };
}
