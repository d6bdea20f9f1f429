// Trains a fresh policy on a finished run's kept trajectories with other learner settings, and saves
// a checkpoint for `tti-run eval --checkpoint`: what the learner's settings do to greedy eval on the
// same data, without collecting again.
// `node dist/experiments/retrain/retrain.js RUN_DIR OUT_DIR '{"lr":5e-3,"updates":300,"cutDetours":true}'`
import path from 'node:path';
import {
  BcTrainer,
  CheckpointStore,
  loadBackend,
  saveModelCheckpoint,
  seededRandom,
  TfjsPolicy,
  trainingSteps,
  withoutDetours,
} from '../../src/model/index.js';
import { readReplayLog } from '../../src/replay/index.js';

interface RetrainSettings {
  lr: number;
  batch: number;
  /** updates in all (passes over the kept steps until at least this many) */
  updates: number;
  scorePenalty: number;
  seed: number;
  /** train on the trajectories without their detours (src/model/detours.ts) */
  cutDetours: boolean;
}

const DEFAULTS: RetrainSettings = {
  lr: 5e-3,
  batch: 8,
  updates: 300,
  scorePenalty: 0.1,
  seed: 0,
  cutDetours: false,
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [runDir, outDir, variant] = process.argv.slice(2);
  if (!runDir || !outDir) throw new Error('usage: retrain.js RUN_DIR OUT_DIR [settings JSON]');
  const s: RetrainSettings = { ...DEFAULTS, ...(JSON.parse(variant ?? '{}') as Partial<RetrainSettings>) };
  await loadBackend('auto');
  const kept = readReplayLog(path.join(runDir, 'replay'));
  const steps = kept.flatMap((t) => trainingSteps(s.cutDetours ? withoutDetours(t).trajectory : t));
  const policy = TfjsPolicy.create({ seed: s.seed });
  const trainer = new BcTrainer(policy, { learningRate: s.lr, clipNorm: 1, scorePenalty: s.scorePenalty });
  const report = trainer.train(steps, {
    epochs: 1,
    batchSize: s.batch,
    minUpdates: s.updates,
    random: seededRandom(s.seed + 1),
  });
  const dir = saveModelCheckpoint(new CheckpointStore(outDir, 1), 1, policy, trainer, { iteration: 0 });
  process.stdout.write(
    `${JSON.stringify(s)}: ${kept.length} trajectories, ${steps.length} steps, ${report.updates} updates, ` +
      `${report.epochs} passes, loss ${report.loss.toFixed(3)}, skipped ${report.skipped} → ${dir}\n`,
  );
}
