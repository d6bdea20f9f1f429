/**
 * MiniArena: three small web sites modelled on WebArena's (a shop, a forum, a project tracker),
 * served from memory with a seeded generator, plus a task suite in WebArena's JSON format and
 * the scripted oracle that solves it. An application the browser env drives, as WebArena's sites
 * are: nothing under src/envs imports it.
 *
 * Placeholders: `__SHOPPING__` → `${origin}/shop`, `__REDDIT__` → `${origin}/forum`,
 * `__GITLAB__` → `${origin}/tracker` (see `host.placeholders` / `host.resolve`).
 */
export {
  answersTakeTurns,
  type GenerateOptions,
  generateTasks,
  MORE_TRAIN_ID_BASE,
  moreTrainTasks,
  serializeTasks,
  TASKS_DIR,
  type TaskSuite,
  writeTaskFiles,
} from './generate-tasks.js';
export {
  DEFAULT_ACCOUNTS,
  ENV_CTRL_PREFIX,
  MINIARENA_QUIET_MS,
  type MiniArenaHost,
  type MiniArenaHostOptions,
  PLACEHOLDERS,
  RESET_PATH,
  RESET_TOKEN_HEADER,
  resetMiniArenaOverHttp,
  SITE_PREFIX,
  type StorageCookie,
  serveMiniArena,
  startMiniArenaHost,
  WEBARENA_SITES,
  type WebArenaSite,
} from './host.js';
export * from './oracle/index.js';
export {
  applyOracleLengths,
  ORACLE_LENGTHS_FILE,
  type OracleLengths,
  readOracleLengths,
  suiteFingerprint,
} from './oracle-lengths.js';
export { type ArenaState, DEFAULT_SEED, generateArenaState, pristineState } from './seed-data.js';
export { HELD_OUT_TEMPLATES, TEMPLATES } from './templates/index.js';
export type {
  Feature,
  MiniArenaMeta,
  MiniArenaTask,
  ProgramHtmlTarget,
  ReferenceAnswers,
  SiteRequest,
  TaskEval,
  Template,
  Tier,
} from './templates/types.js';
export { tierOf } from './templates/types.js';
export {
  VERIFIED_TASKS_DIR,
  verifiedEntryOf,
  verifiedSuite,
  writeVerifiedTaskFiles,
} from './verified-format.js';
