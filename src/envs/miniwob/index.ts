// MiniWoB++ as a task source: the episode protocol on its pages, the suite's tasks and seeds, and
// a loopback server for a local copy of its html/ folder.
export type { MiniwobPageResult } from './page.js';
export { MiniwobProtocolError, readMiniwobResult, sameTaskPage, startMiniwobEpisode } from './page.js';
export type { MiniwobServer } from './serve.js';
export { serveMiniwobDir } from './serve.js';
export type { MiniwobSource } from './suite.js';
export {
  listMiniwobTasks,
  MINIWOB_TRAIN_SEED_BASE,
  MiniwobSuiteError,
  miniwobTaskFile,
  miniwobTaskIds,
  resolveMiniwobTasks,
} from './suite.js';
export type { MiniwobEpisodeSpec } from './task.js';
export {
  MINIWOB_TASK_FILE_PREFIX,
  MINIWOB_VIEWPORT,
  miniwobTask,
  miniwobTaskId,
  miniwobTaskUrl,
  parseMiniwobTaskId,
} from './task.js';
