// The episode as an env worker runs it (observe, act, execute, verdict), and what a strategy
// (src/strategies) plugs into it with. `policy-input.ts` is a lighter entry: the inference worker
// reads an act request as the env worker featurized it, without loading the browser.
export { Acting, type ActingWorker, type DecideOptions, type EpisodeContext } from './acting.js';
export { policyInputOf } from './policy-input.js';
export { type RolloutSearch, SEARCH_EXTRAS, SEARCH_METRICS, searchRollouts } from './rollouts.js';
export { EpisodeRunner, type EpisodeWorker } from './runner.js';
export type { Episode, Outcome, Preempt, Strategy } from './strategy.js';
