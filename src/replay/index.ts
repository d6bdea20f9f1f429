// Replay: TTI's filter (which trajectories are kept), the crash-safe log of kept trajectories, and
// how the learner samples from it.
export { isKept } from './filter.js';
export { type OpenReport, ReplayLog, ReplayLogReader, readReplayLog } from './replay-log.js';
export { sampleTrajectories, samplingWeights } from './sample.js';
