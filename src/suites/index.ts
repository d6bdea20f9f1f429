// Task suites: each benchmark behind one interface (suite.ts), the built-in ones in their own
// folders, and the registry that picks the run's (docs/envs.md, "Task suites").
export { makePageTask, suiteWorkerContext } from './context.js';
export { EnvCtrlError, resetSite, resetSites } from './env-ctrl.js';
// MiniWoB++'s reading of what each page needs beyond element clicks, for the eval's listing
export { miniwobNeedsOfConfig } from './miniwob/index.js';
export { autoSuiteName, BUILT_IN_SUITES, loadSuite, SuiteError } from './registry.js';
export type {
  AnswerFormat,
  PageTask,
  PointerNeed,
  Split,
  SuiteBrowser,
  SuiteContext,
  SuiteHost,
  SuiteLog,
  SuiteTasks,
  SuiteWorkerContext,
  TaskRef,
  TaskSuite,
} from './suite.js';
export { TaskFiles, taskFileTasks, webArenaHosts } from './task-files.js';
export * as verified from './webarena-verified/index.js';
