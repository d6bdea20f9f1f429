// Search over an env's states (issue 23): going back to a page found earlier and acting from it.
export {
  type BranchSearchOptions,
  branchSearch,
  type Decision,
  type RolloutStep,
  replyOnPage,
  rolloutSteps,
  type SearchOutcome,
  type SearchPick,
  type SearchStats,
  type Taken,
} from './branch-search.js';
export { type Cell, CellArchive, type CellRank, cellKey, type PathStep } from './cell-archive.js';
export { probeStops, type StopCandidate, type StopProbeCounts, type StopProber } from './stop-probes.js';
