// The wire protocol: every message the processes of a run exchange, declared once with fast checks
// compiled from the same schemas, and the ZeroMQ sockets that carry them. It imports nothing of
// tti, so a child process can depend on it without pulling in the supervisor.
export * from './act.js';
export * from './codec.js';
export * from './control.js';
export * from './curve.js';
export * from './episode-timing.js';
export * from './exit-codes.js';
export * from './inbound.js';
export * from './model-input.js';
export * from './register-proof.js';
export * from './socket-hold.js';
export * from './socket-limits.js';
export * from './speaker-proof.js';
export * from './status.js';
export * from './tasks.js';
export * from './trajectories.js';
export * from './transport.js';
export * from './validate.js';
export * from './weights.js';
export * from './z85.js';
export * from './zap.js';
