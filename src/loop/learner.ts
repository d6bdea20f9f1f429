// The loop's second seam: whatever trains. The actor system's learner draws its sample of kept
// trajectories from replay, runs the learner objective, checkpoints and publishes the new weights
// (src/actors/supervisor/train-coordinator.ts); a test's answers from memory.

/** What one training pass did. */
export interface LearnerReport {
  /** the version now published (unchanged when there was nothing to train on) */
  policyVersion: number;
  trajectories: number;
  samples: number;
  /** steps whose action is not one of the policy's candidates */
  skipped: number;
  loss: number | null;
  samplesPerSec: number | null;
  durationMs: number;
  /** kept trajectories older than the pass's minPolicyVersion, left out of its sample */
  stale?: number;
}

export interface Learner {
  /**
   * Trains iteration `iteration` on a sample of what replay kept and publishes `policyVersion`;
   * resolves with what it did (null: a run without a learner). With `minPolicyVersion` the sample
   * holds only trajectories every step of which that version or a newer one chose.
   */
  train(iteration: number, policyVersion: number, minPolicyVersion?: number): Promise<LearnerReport | null>;
}
