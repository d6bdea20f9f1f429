// Small things every layer may use: the one seeded random stream, where the project's files are,
// and writes that are whole and durable or fail.

export { deferred } from './deferred.js';
export * from './durable.js';
export * from './fresh.js';
export * from './paths.js';
export * from './random.js';
export * from './suite-label.js';
