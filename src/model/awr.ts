// Advantage-weighted regression as DigiRL trains its actor (`learner.algorithm: awr`, section awr):
// every episode, failed or not, teaches the critic the reward to expect from a page, and each step
// counts by its advantage. Top to bottom:
//
//   sample      replay's kept trajectories and as many failed ones
//   critic      V(s_t) → R                  R: the page's own reward where it gives one (MiniWoB++'s
//                                             raw −1…1), else TTI's 0/1
//   advantage   A_t = λ^(T−1−t)·R + (1−λ)·(V(s_{t+1}) + r_t − V(s_t))     DigiRL's step-level mix:
//               the episode's reward, discounted by the steps left, plus the critic's one-step
//               change (V(s_T) = 0, r_t = R on the last step, else 0); V is the critic before this
//               iteration's updates
//   weight      DigiRL's filter: 1 where A_t > threshold, else 0
//   losses      the policy: filtered BC's cross-entropy (filtered-bc.ts imitationLoss) with these
//               weights, on the steps of weight > 0 and the demonstrations mixed in; then the
//               critic: the squared error of V against R on every step (criticLoss), which moves
//               the critic head (value/*) alone
//
// Why the filter, not Peng et al.'s exp(A_t/β) weights (removed, issue 52): with those a step the
// critic already expects to fail has A ≈ 0 and weight ≈ 1, so the policy imitates its own failures
// wherever it never succeeds (most tasks, early on). The filter keeps successes' steps (the first
// term) and those steps of failures that raised the critic's estimate.
//
// Edits typed over later (overwritten.ts) get weight 0 as they do under filtered BC, so the two
// learners imitate the same steps of a success; the critic still learns from them.
import type { LearnerObjective, ObjectiveInput, ObjectivePasses } from './objective.js';
import { overwrittenEdits } from './overwritten.js';
import { tf } from './tf.js';
import { trainingSteps } from './training-steps.js';
import type { TrainingStep, TrajectoryForTraining } from './types.js';

export interface AwrOptions {
  /** λ: how much of the advantage is the episode's own reward rather than the critic's change. */
  lambda: number;
  /** the advantage a step must exceed to be trained on */
  threshold: number;
  /** Edits a later edit of the same field replaced are not imitated (`learner.skip_overwritten_edits`). */
  skipOverwrittenEdits?: boolean;
}

export interface AwrStats {
  steps: number;
  /** Steps of episodes that failed (R ≤ 0). */
  failureSteps: number;
  meanReturn: number;
  meanValue: number;
  meanAdvantage: number;
  meanWeight: number;
  /** Share of the total weight on failed episodes' steps. */
  failureWeightShare: number;
  /** Edits typed over later, given weight 0. */
  overwritten: number;
}

/** The episode's return as the critic learns it. */
export function episodeReturn(trajectory: TrajectoryForTraining): number {
  return trajectory.rawReward ?? trajectory.reward ?? 0;
}

/** Weight of one step with advantage `advantage`. */
export function advantageWeight(advantage: number, options: AwrOptions): number {
  return advantage > options.threshold ? 1 : 0;
}

/**
 * Every step of every trajectory with its weight and the critic's target. `values` gives the
 * critic's present estimate for a list of steps (BcTrainer.values; the learner's yields to its
 * event loop between chunks, since a sample of failures takes seconds to rate).
 */
export async function awrSteps(
  trajectories: readonly TrajectoryForTraining[],
  values: (steps: readonly TrainingStep[]) => Float32Array | Promise<Float32Array>,
  options: AwrOptions,
): Promise<{ steps: TrainingStep[]; stats: AwrStats }> {
  const steps: TrainingStep[] = [];
  const failed: boolean[] = [];
  /** per step: the episode's reward discounted by λ^(steps left), and its place in the episode */
  const reward: number[] = [];
  const last: boolean[] = [];
  const replaced: boolean[] = [];
  for (const trajectory of trajectories) {
    const R = episodeReturn(trajectory);
    const own = trainingSteps(trajectory);
    const typedOver = options.skipOverwrittenEdits ? overwrittenEdits(trajectory) : new Set<number>();
    own.forEach((step, t) => {
      step.valueTarget = R;
      steps.push(step);
      failed.push(R <= 0);
      reward.push(options.lambda ** (own.length - 1 - t) * R);
      last.push(t === own.length - 1);
      replaced.push(typedOver.has(t));
    });
  }
  const v = await values(steps);
  const advantages = steps.map((step, i) => {
    const next = last[i] ? step.valueTarget! : v[i + 1]!;
    return reward[i]! + (1 - options.lambda) * (next - v[i]!);
  });
  let sumReturn = 0;
  let sumValue = 0;
  let sumAdvantage = 0;
  let sumWeight = 0;
  let failureWeight = 0;
  steps.forEach((step, i) => {
    const advantage = advantages[i]!;
    step.weight = replaced[i] ? 0 : advantageWeight(advantage, options);
    sumReturn += step.valueTarget!;
    sumValue += v[i]!;
    sumAdvantage += advantage;
    sumWeight += step.weight;
    if (failed[i]) failureWeight += step.weight;
  });
  const n = Math.max(1, steps.length);
  return {
    steps,
    stats: {
      steps: steps.length,
      failureSteps: failed.filter(Boolean).length,
      meanReturn: sumReturn / n,
      meanValue: sumValue / n,
      meanAdvantage: sumAdvantage / n,
      meanWeight: sumWeight / n,
      failureWeightShare: sumWeight > 0 ? failureWeight / sumWeight : 0,
      overwritten: replaced.filter(Boolean).length,
    },
  };
}

/** The keys of section awr (and filtered BC's edit rule, which AWR follows too). */
export interface AwrKeys {
  awr_lambda: number;
  awr_threshold: number;
  skip_overwritten_edits: boolean;
}

export const awrObjective: LearnerObjective<AwrKeys> = {
  failures: true,
  async passes(input: ObjectiveInput, keys: AwrKeys): Promise<ObjectivePasses> {
    const weighted = await awrSteps(input.trajectories, input.values, {
      lambda: keys.awr_lambda,
      threshold: keys.awr_threshold,
      skipOverwrittenEdits: keys.skip_overwritten_edits,
    });
    const a = weighted.stats;
    input.log(
      `iteration ${input.iteration} awr: ${a.steps} steps (${a.failureSteps} of failures), ` +
        `mean return ${a.meanReturn.toFixed(3)}, value ${a.meanValue.toFixed(3)}, ` +
        `advantage ${a.meanAdvantage.toFixed(3)}, weight ${a.meanWeight.toFixed(3)}, ` +
        `failures' share of weight ${(100 * a.failureWeightShare).toFixed(1)}%, ` +
        `${a.overwritten} edits typed over not imitated`,
    );
    return {
      // The filter's zero-weight steps would only dilute the policy's batches.
      policy: weighted.steps.filter((s) => (s.weight ?? 1) > 0).concat(input.demos),
      critic: weighted.steps,
      counters: { meanValue: Math.round(a.meanValue * 1000) / 1000 },
    };
  },
};

/**
 * The critic's loss: the mean squared error of V against each observation's target, over the
 * observations that have one (NaN marks those without).
 */
export function criticLoss(value: tf.Tensor1D, targets: Float32Array): tf.Scalar {
  const has = new Float32Array(targets.length);
  const target = new Float32Array(targets.length);
  let n = 0;
  for (let b = 0; b < targets.length; b++) {
    const t = targets[b]!;
    if (Number.isNaN(t)) continue;
    has[b] = 1;
    target[b] = t;
    n += 1;
  }
  const error = tf.mul(tf.sub(value, tf.tensor1d(target)), tf.tensor1d(has));
  return tf.mul(tf.sum(tf.mul(error, error)), tf.scalar(1 / Math.max(1, n))) as tf.Scalar;
}
