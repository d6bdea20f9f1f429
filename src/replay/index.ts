// Replay: TTI's filter (which trajectories are kept), the crash-safe log of kept trajectories, and
// how the learner samples from it.
export { isKept } from './filter.js';
export { ReplayLogReader, readReplayLog } from './log-reader.js';
export { encodeRecord, MAX_RECORD_BYTES, RecordTooLarge } from './record-format.js';
export { type OpenReport, ReplayLog, ReplayWriteFailed } from './replay-log.js';
export { oldestPolicyVersion, sampleTrajectories, samplingWeights, withinPolicyVersion } from './sample.js';
