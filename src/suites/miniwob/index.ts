// MiniWoB++ as a task suite: the episode protocol on its pages, its tasks and seeds, a loopback
// server for a local copy of its html/ folder, and the suite itself.
export { MINIWOB_EVALUATOR, type MiniwobHookOptions, miniwobHooks } from './hooks.js';
export type { MiniwobTaskNeeds, PageNeed } from './needs.js';
export {
  describeMissing,
  miniwobNeedsOfConfig,
  miniwobTaskNeeds,
  pageNeeds,
  pointerOffers,
} from './needs.js';
export type { MiniwobPageResult } from './page.js';
export { MiniwobProtocolError, readMiniwobResult, sameTaskPage, startMiniwobEpisode } from './page.js';
export type { MiniwobServer } from './serve.js';
export { serveMiniwobDir } from './serve.js';
export { miniwobSuite } from './suite.js';
export type { MiniwobEpisodeSpec } from './task.js';
export {
  MINIWOB_TASK_FILE_PREFIX,
  MINIWOB_VIEWPORT,
  miniwobTask,
  miniwobTaskId,
  miniwobTaskUrl,
  parseMiniwobTaskId,
} from './task.js';
export type { MiniwobSource } from './tasks.js';
export {
  listMiniwobTasks,
  MINIWOB_TRAIN_SEED_BASE,
  MiniwobSuiteError,
  miniwobTaskFile,
  miniwobTaskIds,
  resolveMiniwobTasks,
} from './tasks.js';
