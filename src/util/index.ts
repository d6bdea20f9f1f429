// Small things every layer may use: the one seeded random stream, and where the project's files are.

export * from './fresh.js';
export * from './paths.js';
export * from './random.js';
export * from './suite-label.js';
