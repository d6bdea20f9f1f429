// What a task suite does in the browser around the env's own loop: starting a page's own episode,
// noticing when the page has ended it, and scoring it. The env names no suite; each suite
// (src/suites) brings its hooks, and a task without them runs as WebArena's do.
import type { BrowserContext, Page, Response } from 'playwright-core';
import type { Verdict } from './evaluators/verdict.js';
import type { EndReason } from './record.js';
import type { Task } from './tasks/task.js';

export interface EpisodeStart {
  /** the first tab, its start page loaded */
  page: Page;
  task: Task;
  /** each start URL's response (null where the navigation had none, e.g. about:blank) */
  responses: readonly (Response | null)[];
  /** how long starting may take (the env's load cap) */
  timeoutMs: number;
}

export interface EpisodeEnd {
  /** the current tab, or null when none is left */
  page: Page | null;
  task: Task;
  endReason: EndReason;
  /** the answer given ('' when none) */
  answer: string;
}

export interface EpisodeHooks {
  /**
   * Before the episode's first navigation, in the context it runs in (new or kept): what must see
   * the start pages load (a network trace, say). A throw is a setup error naming the task.
   */
  beforeNavigation?(s: { context: BrowserContext; task: Task }): Promise<void>;
  /**
   * Once the start pages have loaded: start what the page runs itself (seed and start its own
   * episode, say), or throw to refuse the start (an error page); returns the task as the episode runs
   * it (with the intent the page states, say). A throw is a setup error naming the task.
   */
  start?(s: EpisodeStart): Promise<Task>;
  /** After each action: an end the page itself has reached (`task_done`, `left_page`), or null. */
  ended?(page: Page, task: Task): Promise<EndReason | null>;
  /** Why a stop's answer is not in the form the suite reads (null: it is); such a stop is an invalid action. */
  checkAnswer?(answer: string, task: Task): string | null;
  /** The verdict on the final state; absent, WebArena's evaluators score the task. */
  score?(s: EpisodeEnd): Promise<Verdict>;
  /** The evaluator a failed `score` is reported under (default 'judge'). */
  evaluator?: string;
}
