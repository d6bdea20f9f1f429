// The trainable policy and its learner: public API (docs/model.md).
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
  buildCandidateSet,
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
export { leavesStateAlone, withoutDetours } from './detours.js';
export { DENSE_SIZE, denseFeatureNames, KIND_WEIGHT, UNIFORM_SHARE } from './features.js';
export { DEFAULT_POLICY_OPTIONS, type PolicyOptions, seededRandom, TfjsPolicy } from './policy.js';
export { clean, DONE_ANSWER } from './text.js';
export {
  BcTrainer,
  type TrainerOptions,
  type TrainOptions,
  type TrainReport,
  trainingSteps,
} from './trainer.js';
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
