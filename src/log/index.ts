// Logs: JSON lines per process in the run directory, readable lines on the console.
export * from './logger.js';
