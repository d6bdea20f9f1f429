/**
 * MiniArena's oracle: one scripted solver per intent template, acting only through the browser
 * env's action space, and `checkTasks` (`tti-run tasks check`) that runs it over the task files.
 */
export {
  type CheckTasksOptions,
  type CheckTasksResult,
  checkTasks,
  ORACLE_ENV,
  ORACLE_HORIZON,
  type OracleEpisode,
  runOracleEpisode,
  summarizeEpisodes,
  type TierStats,
} from './check.js';
export { Driver, OracleError } from './driver.js';
export {
  type ArenaSlot,
  closeSlots,
  openSlots,
  readSplit,
  runOnSlots,
  type Split,
  selectTasks,
} from './pool.js';
export {
  type RandomEpisode,
  type RandomPolicyOptions,
  type RandomPolicyResult,
  type RandomTierStats,
  randomAction,
  randomPolicySuccess,
  taskWords,
} from './random-policy.js';
export {
  answerCheck,
  type DemoRecordOptions,
  type OracleDemo,
  type OracleDemoStep,
  type RecordDemosOptions,
  recordOracleDemo,
  recordOracleDemos,
  ttiActionOf,
} from './record-demos.js';
export { type RecordLengthsResult, recordOracleLengths } from './record-lengths.js';
export { type ReplayRecording, recordForReplay } from './record-replay.js';
export { SOLVERS } from './solvers/index.js';
export type { OracleTask, Solver } from './types.js';
export { toOracleTask, watchedSolve } from './watched-solve.js';
