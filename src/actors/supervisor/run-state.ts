// The run's state on disk: state.json is what status shows and what --resume continues from, and
// metrics.jsonl keeps one row per completed iteration. `iteration` in state.json is the last
// *completed* one (the loop's state); the one under way is only shown, or a resume would skip it.
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Config } from '../../config/index.js';
import type { Logger } from '../../log/index.js';
import { freshLoopState, type LoopState } from '../../loop/index.js';
import { type RunDir, writeFileAtomic } from '../../run/index.js';
import type { RunProgress, RunView } from './run-actor.js';

const Totals = z.object({
  envSteps: z.number(),
  episodes: z.number(),
  successes: z.number(),
  seen: z.number(),
  kept: z.number(),
});
const RunStateFile = z.object({
  iteration: z.number().int().nonnegative(),
  policyVersion: z.number().int().nonnegative(),
  horizon: z.number().int().positive(),
  randomState: z.number().optional(),
  totals: Totals.optional(),
  // `groups` (task sampling by group, removed in issue 52) may still be in an old run's file: stripped
});

export function readLoopState(runDir: RunDir, config: Config, resume: boolean, log: Logger): LoopState {
  const fresh = freshLoopState(config);
  if (!resume) return fresh;
  if (!existsSync(runDir.state)) {
    log.info(`--resume: nothing to resume in ${runDir.root}; starting a new run`);
    return fresh;
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(runDir.state, 'utf8'));
  } catch (error) {
    throw new Error(`--resume: ${runDir.state} is not JSON: ${(error as Error).message}`);
  }
  const parsed = RunStateFile.safeParse(json);
  if (!parsed.success) throw new Error(`--resume: ${runDir.state} is malformed: ${parsed.error.message}`);
  const s = parsed.data;
  log.info(`resuming after iteration ${s.iteration}, policy version ${s.policyVersion}`);
  return {
    iteration: s.iteration,
    policyVersion: s.policyVersion,
    horizon: s.horizon,
    randomState: s.randomState ?? fresh.randomState,
    totals: s.totals ?? fresh.totals,
  };
}

/** metrics.jsonl keeps one row per completed iteration: rows past the resumed state are dropped. */
export function trimMetrics(file: string, lastIteration: number): void {
  if (!existsSync(file)) return;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const kept = lines.filter((line) => {
    try {
      return (JSON.parse(line) as { iteration?: number }).iteration! <= lastIteration;
    } catch {
      return false;
    }
  });
  if (kept.length !== lines.length) writeFileAtomic(file, kept.length > 0 ? `${kept.join('\n')}\n` : '');
}

/** What the run is at, as status shows it and state.json keeps it. Eval runs keep their own. */
export class RunStateStore {
  /** the TTI loop's state after its last completed iteration */
  loop: LoopState;
  progress: RunProgress;
  view: RunView;

  constructor(
    private readonly runDir: RunDir,
    loop: LoopState,
  ) {
    this.loop = loop;
    this.progress = { iteration: loop.iteration, policyVersion: loop.policyVersion, horizon: loop.horizon };
    this.view = { ...this.progress, state: 'starting', reason: null };
  }

  /** The loop completed an iteration: its state is saved, and what status shows follows it. */
  advance(loop: LoopState): RunProgress {
    this.loop = loop;
    const progress = { iteration: loop.iteration, policyVersion: loop.policyVersion, horizon: loop.horizon };
    this.save({ ...this.view, ...progress });
    return progress;
  }

  save(view: RunView): void {
    this.view = view;
    this.progress = { iteration: view.iteration, policyVersion: view.policyVersion, horizon: view.horizon };
    const saved = {
      ...this.progress,
      ...this.loop,
      inProgress: this.progress.iteration,
      state: view.state,
      reason: view.reason,
    };
    writeFileAtomic(this.runDir.state, `${JSON.stringify(saved, null, 2)}\n`);
  }
}
