// Demonstrations mixed into online training (`learner.demos`). Fine-tuned on its own kept
// trajectories alone, a pretrained policy narrows to what collection finds, mostly short tasks: a
// BC policy fine-tuned by TTI lost tiers 2 and 3 (experiments/tier-3). Drawing some of the demos it
// was pretrained on into every iteration keeps them in its data, as DQfD and RLPD keep their
// offline data beside what the agent collects.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SeededRandom } from '../util/index.js';
import { alignAnswers } from './align-answers.js';
import { readDemoFileYielding } from './demo-file.js';
import { imitatedSteps } from './overwritten.js';
import type { TrainingStep } from './types.js';

export interface DemoMix {
  file: string;
  /** each demonstration's imitated steps, made once: the trainer's encoding cache keeps them */
  demos: TrainingStep[][];
  /** steps in all, and those whose action is not among the policy's candidates (BC skips them) */
  steps: number;
  uncovered: number;
  /** lines left out: failed trajectories, SFT samples without a task */
  skipped: number;
}

export interface DemoMixOptions {
  horizon: number;
  /** as learner.skip_overwritten_edits */
  skipOverwrittenEdits: boolean;
  /** the longest the event loop is held while loading */
  sliceMs?: number;
}

/**
 * Reads a demonstrations file as `tti-run pretrain --demos FILE` does (a bad line throws
 * DemoFileError naming the line and the field), letting the event loop go every `sliceMs`.
 * Answers are kept as written: with no task's evaluator at hand, one that no candidate offers is
 * counted uncovered rather than retargeted.
 */
export async function loadDemoMix(file: string, o: DemoMixOptions): Promise<DemoMix> {
  const sliceMs = o.sliceMs ?? 50;
  const read = await readDemoFileYielding(file, o.horizon, sliceMs);
  const mix: DemoMix = { file, demos: [], steps: 0, uncovered: 0, skipped: read.skipped };
  let sliceStart = performance.now();
  for (const t of read.trajectories) {
    // Building every step's candidates takes seconds for a few thousand demos: the learner
    // loading them must still answer heartbeats.
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    const aligned = await alignAnswers(t);
    mix.demos.push(imitatedSteps(aligned.trajectory, o.skipOverwrittenEdits).steps);
    mix.steps += aligned.steps;
    mix.uncovered += aligned.uncovered;
  }
  return mix;
}

/** `count` demonstrations drawn without replacement, as training steps. */
export function drawDemoSteps(
  mix: DemoMix,
  count: number,
  random: SeededRandom,
): { trajectories: number; steps: TrainingStep[] } {
  const drawn = random.sample(mix.demos, count);
  return { trajectories: drawn.length, steps: drawn.flat() };
}
