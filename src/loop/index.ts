// The TTI algorithm in one place: draw tasks, collect at the curriculum's horizon, let replay
// filter, learn, publish, evaluate and checkpoint the run's state, against two seams — a Collector
// that runs episodes and a Learner that trains. It imports no actor, nact or ZeroMQ: the actor
// system (src/actors/supervisor) implements both seams, and a unit test drives it from memory.
export * from './async-tti-loop.js';
export * from './collector.js';
export * from './episode.js';
export * from './eval-pass.js';
export * from './eval-summary.js';
export * from './learner.js';
export * from './loop-state.js';
export * from './metrics-row.js';
export * from './policy-lag.js';
export * from './strategy-summary.js';
export * from './streaming-collector.js';
export * from './tti-loop.js';
