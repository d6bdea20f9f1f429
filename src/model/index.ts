// The trainable policy and its learner: public API (docs/model.md).
export { type AlignedDemo, alignAnswers } from './align-answers.js';
export {
  type AwrKeys,
  type AwrOptions,
  type AwrStats,
  advantageWeight,
  awrSteps,
  episodeReturn,
} from './awr.js';
export {
  type BackendChoice,
  type BackendName,
  BackendUnavailableError,
  currentBackend,
  loadBackend,
} from './backend.js';
export {
  type ActionKind,
  actionOfReply,
  buildCandidates,
  type Candidate,
  intentPhrases,
  KINDS,
} from './candidates.js';
export {
  type LoadedModel,
  loadModelCheckpoint,
  NoCheckpointError,
  saveModelCheckpoint,
} from './checkpoint.js';
export { CheckpointStore } from './checkpoint-store.js';
export {
  DemoFileError,
  type DemoFileReport,
  parseAxTreeText,
  readDemoFile,
  withFreshColumns,
} from './demo-file.js';
export { type DemoMix, drawDemoSteps, loadDemoMix } from './demo-mix.js';
export { leavesStateAlone, withoutDetours } from './detours.js';
export { type EncodedObservation, encodeObservation, padBatch } from './encode.js';
export { candidatesWithEvidence, countedWords } from './evidence.js';
export { encodedFrom, FeaturesError, featuresOf, type PolicyFeatures } from './features.js';
export type { FilteredBcKeys } from './filtered-bc.js';
export { DEFAULT_BUCKETS, SCALAR_SIZE, SCALARS } from './layout.js';
export * from './model-input.js';
export { DEFAULT_NETWORK_OPTIONS, type NetworkOptions } from './network.js';
export {
  type LearnerKeys,
  type LearnerObjective,
  OBJECTIVES,
  type ObjectiveInput,
  type ObjectiveName,
  type ObjectivePasses,
  objectiveNamed,
} from './objective.js';
export {
  type AdamOptions,
  LazyRowAdam,
  momentFrames,
  PolicyAdam,
  type PolicyOptimizer,
  readMomentFrames,
  stateShapes,
} from './optimizer.js';
export { imitatedSteps, overwrittenEdits } from './overwritten.js';
export {
  DEFAULT_POLICY_OPTIONS,
  type PolicyOptions,
  seededRandom,
  sizeGroups,
  TfjsPolicy,
} from './policy.js';
export { fitPriorToDemos, type PretrainOptions, type PretrainReport, pretrain } from './pretrain.js';
export {
  type FitReport,
  fitPrior,
  logPrior,
  type Prior,
  PriorFileError,
  readPriorFile,
  UNIFORM_PRIOR,
} from './prior.js';
export { clean, DONE_ANSWER } from './text.js';
export { redundantActions } from './trail.js';
export {
  BcTrainer,
  type TrainerOptions,
  type TrainOptions,
  type TrainReport,
} from './trainer.js';
export { trainingSteps } from './training-steps.js';
export type {
  ActionOffers,
  ActOptions,
  NodeColumns,
  PolicyDecision,
  PolicyInput,
  TensorFrames,
  TrainingStep,
  TrajectoryForTraining,
} from './types.js';
