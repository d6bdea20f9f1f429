// What a run trains on and when: TTI's horizon schedule, the temperature schedule, task sampling,
// and the eval subset.
export * from './eval-subset.js';
export * from './horizon-schedule.js';
export * from './task-sampler.js';
export * from './temperature-schedule.js';
