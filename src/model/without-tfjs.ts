// The model's API that loads no TensorFlow.js (index.ts does, ≈40 MB and 0.6 s of CPU a process):
// what an env worker sends with each act request, and the checkpoint store's bookkeeping.
export { CheckpointStore } from './checkpoint-store.js';
export { actionSignature } from './trail.js';
export type { TrailStep } from './types.js';
