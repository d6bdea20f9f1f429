// How a browser env is set up (BrowserEnvConfig) and how one episode starts (ResetOptions).

import type { Typing } from './actions/execute.js';
import type { ActionFormat } from './actions/types.js';
import type { EpisodeHooks } from './episode-hooks.js';
import type { EvaluationInput } from './evaluators/evaluate.js';
import type { Judge } from './evaluators/judge.js';
import type { ProgramHtmlHelpers } from './evaluators/program-html.js';
import type { ObservationOptions } from './observation/observe.js';
import type { EpisodeRunInfo } from './record.js';
import type { TaskLabel } from './tasks/labels.js';

export interface BrowserEnvConfig {
  /** Chromium to run; found with findChromium() when absent. */
  executablePath?: string;
  /** How model replies are read: WebArena's ``` blocks or TTI's "Thought: … Action: …". */
  actionFormat?: ActionFormat;
  /** Most actions per episode (WebArena's max_steps, TTI's max_iter). */
  horizon?: number;
  /** Answers needed before one is final; 1 = the first answer ends the episode. */
  minTry?: number;
  observation?: ObservationOptions;
  /** Cap on one step: executing the action, waiting for load, observing. */
  actionTimeoutMs?: number;
  /** Cap on a whole episode, wall clock. */
  episodeTimeoutMs?: number;
  /** Cap on waiting for the page to load and go quiet after an action. */
  loadCapMs?: number;
  /** How long the network must be quiet before observing. */
  quietMs?: number;
  /** How Type actions enter text (execute.ts); default 'keys', as WebArena. */
  typing?: Typing;
  /**
   * Start an episode in the previous episode's context and tab, cleaned (cookies, the allowed
   * origins' storage, other tabs, history), instead of a new context: no new renderer process per
   * episode. Only for tasks limited to `allowedOrigins` whose login is cookies alone; others get a
   * new context. Default false (WebArena: a new context per episode).
   */
  reuseContext?: boolean;
  /** WebArena's early stops; 0 turns one off. */
  earlyStop?: { parsingFailures?: number; repeatedActions?: number };
  /** Origins WebArena-kind tasks may reach; other requests are blocked and listed in the record. */
  allowedOrigins?: string[];
  judge?: Judge;
  /** grades tasks no program can check (the live web's); absent: they are unscored */
  answerJudge?: EvaluationInput['answerJudge'];
  helpers?: ProgramHtmlHelpers;
  /** Cap on scoring the final state (program_html may navigate). */
  evaluationTimeoutMs?: number;
  /** When set, each finished episode is written to recordDir/<episodeId>/. */
  recordDir?: string;
  /** The page size in CSS pixels (WebArena's 1280×720 by default; a suite may ask for another). */
  viewport?: { width: number; height: number };
  /**
   * Whether `stop [answer]` is an action of the task (default true). Where pages end their episodes
   * themselves a suite may offer none: a stop is then an invalid action (a note).
   */
  offerStop?: boolean;
  /** Whether going back/forward, `goto` and tab actions are offered (default true); if not, each is an invalid action (a note). */
  offerNavigation?: boolean;
  /** A suite's part in each episode: starting the page's own episode, its end, its verdict. */
  hooks?: EpisodeHooks;
}

export interface ResetOptions {
  horizon?: number;
  minTry?: number;
  episodeId?: string;
  /** Screenshots for this episode, overriding `observation.screenshot` (eval episodes, say). */
  screenshot?: boolean;
  /** Where the episode sits in a run; kept in the record. */
  run?: EpisodeRunInfo;
  /** The task's template and tier; kept in the record. */
  labels?: TaskLabel;
}
