// A run's kept trajectories as chat-format SFT samples, for an external fine-tuning job.
export * from './sft.js';
