// The browser environment's public API: the episode, its observations and actions, scoring,
// task files and episode records. Everything else under src/envs is internal.

export { parseTtiReply, ttiActionText } from './actions/parse-tti.js';
export { parseWebArenaReply } from './actions/parse-webarena.js';
export type { Action, ActionFormat, ActionType } from './actions/types.js';
export { describeAction } from './actions/types.js';
export type { FindChromiumOptions } from './browser/find-chromium.js';
export { BrowserNotFoundError, findChromium } from './browser/find-chromium.js';
export type { LaunchOptions } from './browser/launch.js';
export { CHROMIUM_ARGS, launchBrowser, VIEWPORT } from './browser/launch.js';
export { refusedUrl, WEB_SCHEMES } from './browser/navigation.js';
export { isLoginFailure } from './browser/setup-errors.js';
export type { StepInfo, StepResult } from './browser-env.js';
export { BrowserEnv, EpisodeSetupError, LoginFailedError, RECHECK_NOTE } from './browser-env.js';
export type { BrowserEnvConfig, ResetOptions } from './env-config.js';
export type { EpisodeEnd, EpisodeHooks, EpisodeStart } from './episode-hooks.js';
export {
  type EvaluatorResult,
  evaluateAgentResponse,
  parseAgentResponse,
  responseJson,
} from './evaluators/agent-response.js';
export { type ChatJudgeOptions, chatJudges } from './evaluators/chat-judges.js';
export type { EvaluationInput } from './evaluators/evaluate.js';
export { evaluateTask } from './evaluators/evaluate.js';
export type { ChatMessage, Judge } from './evaluators/judge.js';
export { luckyPass, luckySubstring } from './evaluators/lucky.js';
export {
  evaluateNetworkEvents,
  type HarEntry,
  type HarLog,
  type NetworkEvent,
  networkEvents,
} from './evaluators/network-event.js';
export type { ProgramHtmlHelper, ProgramHtmlHelpers } from './evaluators/program-html.js';
export {
  type ProbedStop,
  probeStop,
  type StopProbeKind,
  smallCount,
  stopProbeKind,
} from './evaluators/stop-probe.js';
export { type StringMatchResult, stringMatch } from './evaluators/string-match.js';
export {
  combineVerdicts,
  type EvaluatorVerdict,
  errorMessage,
  pageVerdict,
  type Verdict,
  type VerdictStatus,
} from './evaluators/verdict.js';
export * from './evaluators/verified-schema.js';
export { derenderer } from './evaluators/verified-url.js';
export {
  type AnswerJudge,
  type AnswerJudgeInput,
  WebVoyagerJudge,
  webVoyagerJudgeMessages,
  webVoyagerVerdict,
} from './evaluators/webvoyager-judge.js';
export type { Bounds, ObservationNode } from './observation/ax-tree.js';
export {
  NODE_STATES,
  nodeStates,
  type ObservationColumns,
  observationColumns,
} from './observation/columns.js';
export type { Observation, ObservationOptions } from './observation/observe.js';
export { stillLoading, TRUNCATION_MARKER } from './observation/observe.js';
export { withCaptureRetries } from './observation/set-of-marks.js';
export {
  actionOnPage,
  type ElementKey,
  type ReplayResult,
  type ReplayStep,
  replayPrefix,
  replayStepOf,
} from './replay-prefix.js';
export { originsOf, WEBARENA_PLACEHOLDERS } from './tasks/hosts.js';
export type { TaskFileReport, TaskLoadOptions, TaskSummary, TaskValidation } from './tasks/load.js';
export {
  loadTaskFile,
  summarizeTasks,
  taskFileFormat,
  validateTaskFile,
  validateTaskFiles,
} from './tasks/load.js';
export type { EvalType, ProgramHtmlTarget, WebArenaEval } from './tasks/schema.js';
export { type SiteClaim, type SiteClaims, siteClaimOf } from './tasks/site-claim.js';
export type { Task, TaskFileFormat, TaskIssue, TaskKind } from './tasks/task.js';
export { formatTaskIssue, TaskFileError } from './tasks/task.js';
// episode records, task labels, the notes' text: also reachable without loading the browser
export * from './without-browser.js';
