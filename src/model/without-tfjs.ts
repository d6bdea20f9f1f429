// The model's API that loads no TensorFlow.js (index.ts does, ≈40 MB and 0.6 s of CPU a process):
// what an env worker sends with each act request (its trail, the page's features as frames of the
// model's layout), and the
// checkpoint store's bookkeeping.
export { CheckpointStore } from './checkpoint-store.js';
export { candidatesWithEvidence, countedWords } from './evidence.js';
export { featuresOf, type PolicyFeatures } from './features.js';
export * from './model-input.js';
export { actionSignature } from './trail.js';
export type { PolicyInput, TrailStep } from './types.js';
