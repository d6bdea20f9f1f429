// Filtered behaviour cloning, TTI's learner objective (`learner.algorithm: filtered_bc`), top to
// bottom:
//
//   sample      replay's kept trajectories: successes only, drawn by recency and site balance
//   transforms  per kept trajectory, before it is imitated (section filtered-bc):
//               - its detours and tours cut (detours.ts, `learner.cut_detours`): the steps that
//                 left a page and came back, or took a tour to what the page already offered
//               - its edits typed over later left out (overwritten.ts,
//                 `learner.skip_overwritten_edits`); they stay in the later steps' history
//               then demonstrations mixed in (demo-mix.ts, `learner.demos`, drawn by the learner)
//   loss        per step, the cross-entropy of the chosen candidate under the policy's softmax,
//               times the step's weight (1 here; AWR passes its advantage weights), averaged over
//               the batch, plus `model.score_penalty` × the mean squared learned score
//   update      the trainer (trainer.ts): the gradient through the shared network, a global-norm
//               clip, Adam (optimizer.ts)
import { withoutDetours } from './detours.js';
import type { EncodedBatch } from './encode.js';
import type { LearnerObjective, ObjectiveInput, ObjectivePasses } from './objective.js';
import { imitatedSteps } from './overwritten.js';
import { tf } from './tf.js';
import type { TrainingStep, TrajectoryForTraining } from './types.js';

/** The keys of section filtered-bc. */
export interface FilteredBcKeys {
  cut_detours: boolean;
  skip_overwritten_edits: boolean;
}

/** A kept trajectory's steps as filtered BC imitates them, and what its transforms left out. */
export function imitatedByBc(
  kept: TrajectoryForTraining,
  keys: FilteredBcKeys,
): { steps: TrainingStep[]; cut: number; overwritten: number } {
  const shorter = keys.cut_detours ? withoutDetours(kept) : { trajectory: kept, cut: 0 };
  const imitated = imitatedSteps(shorter.trajectory, keys.skip_overwritten_edits);
  return { steps: imitated.steps, cut: shorter.cut, overwritten: imitated.skipped };
}

export const filteredBcObjective: LearnerObjective<FilteredBcKeys> = {
  failures: false,
  async passes(input: ObjectiveInput, keys: FilteredBcKeys): Promise<ObjectivePasses> {
    let cut = 0;
    let overwritten = 0;
    const own = input.trajectories.flatMap((kept) => {
      const imitated = imitatedByBc(kept, keys);
      cut += imitated.cut;
      overwritten += imitated.overwritten;
      return imitated.steps;
    });
    if (overwritten > 0)
      input.log(`iteration ${input.iteration}: ${overwritten} edits typed over later are not imitated`);
    if (cut > 0) input.log(`iteration ${input.iteration}: ${cut} steps of detours and tours cut`);
    return { policy: own.concat(input.demos), critic: [], counters: {} };
  },
};

/**
 * The loss: mean weighted cross-entropy of the chosen candidates over the batch. Per observation,
 * logsumexp over its candidates minus the chosen one's logit, times the step's weight; each row is
 * shifted by its own max (a constant). Plus `scorePenalty` × the squared learned score (logit
 * minus prior) of every real candidate: cross-entropy alone can fit a few kept steps by pushing
 * whole kinds of candidates down (every answer, every click at step 0), which carries over to
 * tasks nothing was kept of; the penalty holds scores the data does not speak for near 0.
 */
export function imitationLoss(
  encoded: EncodedBatch,
  target: { chosen: readonly number[]; weights: readonly number[] },
  logits: tf.Tensor2D,
  prior: tf.Tensor2D,
  scorePenalty: number,
): tf.Scalar {
  const { B, C } = encoded;
  const values = logits.dataSync();
  const maxes = new Float32Array(B);
  const chosen = new Float32Array(B * C);
  const weights = new Float32Array(B);
  for (let b = 0; b < B; b++) {
    let m = -Infinity;
    for (let c = 0; c < encoded.sizes[b]!; c++) m = Math.max(m, values[b * C + c]!);
    maxes[b] = m;
    weights[b] = target.weights[b]!;
    chosen[b * C + target.chosen[b]!] = weights[b]!;
  }
  const shift = tf.tensor2d(maxes, [B, 1]);
  const lse = tf.add(tf.log(tf.sum(tf.exp(tf.sub(logits, shift)), 1)), tf.reshape(shift, [B]));
  const picked = tf.sum(tf.mul(logits, tf.tensor2d(chosen, [B, C])));
  let loss: tf.Scalar = tf.mul(tf.sub(tf.sum(tf.mul(lse, tf.tensor1d(weights))), picked), tf.scalar(1 / B));
  if (scorePenalty > 0) {
    const mask = tf.tensor2d(encoded.mask, [B, C]);
    const score = tf.mul(tf.sub(logits, prior), mask);
    const real = Math.max(
      1,
      encoded.sizes.reduce((a, b) => a + b, 0),
    );
    loss = tf.add(loss, tf.mul(tf.sum(tf.mul(score, score)), tf.scalar(scorePenalty / real)));
  }
  return loss;
}
