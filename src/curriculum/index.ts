// What a run trains on and when: TTI's horizon schedule, the temperature schedule, task sampling,
// the eval subset, and the seeded random streams behind them.
export * from './eval-subset.js';
export * from './horizon-schedule.js';
export * from './random.js';
export * from './task-sampler.js';
export * from './temperature-schedule.js';
