// Pretraining from demonstrations (what TTI's users get from a pretrained model): behaviour
// cloning on every step of the given trajectories, a checkpoint after every epoch, so a run that
// stops resumes from its last finished epoch with the same weights, optimizer state and data order.

import { loadModelCheckpoint, NoCheckpointError, saveModelCheckpoint } from './checkpoint.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { encodeObservation } from './encode.js';
import { DEFAULT_NETWORK_OPTIONS } from './network.js';
import { imitatedSteps } from './overwritten.js';
import { type PolicyOptions, seededRandom, TfjsPolicy } from './policy.js';
import { type FitReport, fitPrior } from './prior.js';
import { BcTrainer } from './trainer.js';
import type { TrajectoryForTraining } from './types.js';

export interface PretrainOptions {
  epochs: number;
  batchSize: number;
  learningRate: number;
  clipNorm: number;
  /** BcTrainer's word dropout (0.1 measured best on MiniArena's demos: docs/model.md) */
  wordDropout?: number;
  /** leave out the edits a demonstration typed over later (overwritten.ts); default true */
  skipOverwrittenEdits?: boolean;
  /** init, data order */
  seed: number;
  /** where checkpoints go (RUN_DIR/checkpoints); version k is the policy after epoch k */
  store: CheckpointStore;
  policy?: Partial<PolicyOptions>;
  onEpochStart?: (epoch: number, updates: number) => void;
  onUpdate?: (update: number, loss: number) => void;
  onEpoch?: (epoch: number, report: { loss: number; samplesPerSec: number; seconds: number }) => void;
  log?: (message: string) => void;
}

export interface PretrainReport {
  trajectories: number;
  steps: number;
  /** steps whose action is not among the policy's candidates (left out) */
  skipped: number;
  /** edits typed over later in the same demonstration (left out) */
  overwritten: number;
  /** epochs trained by this call (0 when a finished run is resumed) */
  epochsTrained: number;
  resumedFrom: number;
  loss: number;
  seconds: number;
  checkpoint: string | null;
  parameters: number;
}

const EPOCH = 'pretrain_epoch';

export async function pretrain(
  trajectories: TrajectoryForTraining[],
  o: PretrainOptions,
): Promise<PretrainReport> {
  const started = performance.now();
  let overwritten = 0;
  const steps = trajectories.flatMap((t) => {
    const imitated = imitatedSteps(t, o.skipOverwrittenEdits ?? true);
    overwritten += imitated.skipped;
    return imitated.steps;
  });
  let policy: TfjsPolicy;
  let trainer: BcTrainer;
  let from = 0;
  let checkpoint: string | null = null;
  const trainerOptions = {
    learningRate: o.learningRate,
    clipNorm: o.clipNorm,
    scorePenalty: 0,
    wordDropout: o.wordDropout ?? 0,
  };
  try {
    const loaded = loadModelCheckpoint(o.store);
    for (const w of loaded.warnings) o.log?.(w);
    from = loaded.counters[EPOCH] ?? 0;
    policy = loaded.policy;
    trainer = new BcTrainer(policy, trainerOptions);
    if (loaded.optimizerState) await trainer.importState(loaded.optimizerState);
    checkpoint = loaded.path;
    o.log?.(`resuming after epoch ${from} from ${loaded.path}`);
  } catch (error) {
    if (!(error instanceof NoCheckpointError)) throw error;
    policy = TfjsPolicy.create({ ...o.policy, seed: o.seed });
    trainer = new BcTrainer(policy, trainerOptions);
  }
  let loss = 0;
  let skipped = 0;
  try {
    const perEpoch = Math.ceil(steps.length / Math.max(1, o.batchSize));
    for (let epoch = from + 1; epoch <= o.epochs; epoch++) {
      const epochStarted = performance.now();
      o.onEpochStart?.(epoch, perEpoch);
      const report = trainer.train(steps, {
        epochs: 1,
        batchSize: o.batchSize,
        // the epoch's order depends on the seed and the epoch only: a resumed run draws what an
        // uninterrupted one would
        random: seededRandom(o.seed * 1_000_003 + epoch),
        onUpdate: o.onUpdate,
      });
      loss = report.loss;
      skipped = report.skipped;
      checkpoint = saveModelCheckpoint(o.store, epoch, policy, await trainer.exportState(), {
        [EPOCH]: epoch,
      });
      o.onEpoch?.(epoch, {
        loss,
        samplesPerSec: report.samplesPerSec,
        seconds: (performance.now() - epochStarted) / 1000,
      });
    }
    return {
      trajectories: trajectories.length,
      steps: steps.length,
      skipped,
      overwritten,
      epochsTrained: Math.max(0, o.epochs - from),
      resumedFrom: from,
      loss,
      seconds: (performance.now() - started) / 1000,
      checkpoint,
      parameters: policy.parameterCount(),
    };
  } finally {
    trainer.dispose();
    policy.dispose();
  }
}

/**
 * The untrained policy's prior fitted to demonstrations (prior.ts fitPrior): a few dozen numbers,
 * how often each action kind is taken and how much each general fact counts, for `model.prior`.
 * Steps whose action is not among the policy's candidates are left out, as BC leaves them.
 */
export function fitPriorToDemos(
  trajectories: TrajectoryForTraining[],
  o: { skipOverwrittenEdits?: boolean } = {},
): FitReport & { skipped: number } {
  const samples: Parameters<typeof fitPrior>[0] = [];
  let skipped = 0;
  for (const t of trajectories)
    for (const step of imitatedSteps(t, o.skipOverwrittenEdits ?? true).steps) {
      const encoded = encodeObservation(step.input, { buckets: DEFAULT_NETWORK_OPTIONS.buckets });
      const target = encoded.candidates.findIndex((c) => c.action === step.action);
      if (target < 0) skipped++;
      else samples.push({ encoded, target });
    }
  return { ...fitPrior(samples), skipped };
}
