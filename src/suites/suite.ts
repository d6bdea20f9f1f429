// A task suite: everything one benchmark knows, behind one interface, so that the browser env, the
// env worker and the supervisor name none (BrowserGym keeps its core as free of benchmarks: a task
// is an AbstractBrowserTask, each benchmark registers its own). A suite says which tasks each split
// has, starts the web host(s) its tasks run on, sets each episode up, tells when the page has ended
// it and what the verdict is, which actions it offers, and tears its hosts down.
import type { Config } from '../config/index.js';
import type { EpisodeHooks, SiteClaims, Task, TaskLabel, TaskLabels, Verdict } from '../envs/index.js';

/** A task as the supervisor hands it out: where it comes from (a task file, a suite's own source) and its id there. */
export interface TaskRef {
  file: string;
  id: string;
}

export type Split = 'train' | 'test';

/** What a suite may say in the run's log. */
export interface SuiteLog {
  info(message: string): void;
  warn(message: string): void;
}

/** The supervisor's side. */
export interface SuiteContext {
  config: Config;
  log: SuiteLog;
}

/** What a task on a suite's own pages needs; the rest takes the defaults (no login, no WebArena eval block). */
export interface PageTask {
  id: string;
  intent: string;
  startUrls: string[];
  /** the sites it visits (records, the chat prompt's hint); default none */
  sites?: string[];
  /** where the task comes from (its ref's `file`) */
  source: string;
}

/** An env worker's side. */
export interface SuiteWorkerContext extends SuiteContext {
  workerId: string;
  /** the run's folder (null outside a run): a suite may keep files under it (logins, say) */
  runDir: string | null;
  /** a Task for a page of the suite's own (so a plain JavaScript module needs nothing of tti's) */
  makeTask(task: PageTask): Task;
  /** a verdict from the reward the page gives itself (−1…1; a success above 0, BrowserGym's rule) */
  pageVerdict(evaluator: string, reward: number, why: string, discounted?: number): Verdict;
}

export interface SuiteTasks {
  /** the tasks of each split the run uses; a split it does not use may be empty */
  train: TaskRef[];
  test: TaskRef[];
  /** each task's template and tier, for the eval tables (keyed by `labelKey(file, id)`) */
  labels: TaskLabels;
  /** where the tasks come from, for the run's log */
  describe: string;
  /**
   * the sites each task holds, where the suite's sites are shared by every env worker (one
   * WebArena): a site-changing task then runs alone on its sites (docs/envs.md, "Resets and task
   * order"); absent, tasks run in any order, side by side
   */
  claims?: SiteClaims;
}

/** A pointer action a page needs (protocol's ActionOffers.pointer): a drag, a point, a text selection. */
export type PointerNeed = 'drag' | 'point' | 'text_selection' | 'stroke';

/** The form a stop's answer takes: free text (default), or WebArena-Verified's JSON response. */
export type AnswerFormat = 'text' | 'webarena-verified';

/** How the browser shows and runs the suite's pages. */
export interface SuiteBrowser {
  /** the page size in CSS pixels (default WebArena's 1280×720) */
  viewport?: { width: number; height: number };
  /** the actions offered beyond the page's own (default: `stop [answer]` and navigation are offered) */
  offers?: { stop: boolean; navigation?: boolean; answer?: AnswerFormat };
  /** BrowserGym's `clickable`/`visible` flags in the tree text (default off; `env.observation_flags` overrides) */
  flags?: boolean;
  /**
   * how long the page's network must be quiet before an observation (default 50 ms): a suite whose
   * pages fetch nothing once loaded, and say themselves when an episode is ready, may ask for less
   */
  quietMs?: number;
  /** per episode in the browser: starting the page's own episode, its end, its verdict */
  hooks?: EpisodeHooks;
}

/** One env worker's hosts: what its episodes run on, until `close`. */
export interface SuiteHost {
  /** the origins the tasks use: what the worker's health probe asks and the browser allows */
  origins: string[];
  browser: SuiteBrowser;
  /**
   * the Task a ref names (as this worker's hosts serve it), with its label and the pointer actions
   * its page needs beyond the suite's offers (absent: none; MiniWoB++ reads them from the page)
   */
  task(ref: TaskRef): { task: Task; label: TaskLabel; pointer?: PointerNeed[] };
  /** before each episode, on the host's side (MiniArena goes back to its seeded state) */
  beforeEpisode?(): Promise<void>;
  /**
   * puts sites back in their first state (env-ctrl's POST /reset), after a task that changed them;
   * resolves with the sites it reset (those it has a way to), throws when one fails
   */
  resetSites?(sites: readonly string[]): Promise<readonly string[]>;
  /** the `host-down` fault: the host stops answering for `ms`, then comes back as it was */
  outage?(ms: number): Promise<void>;
  /** stops what `start` started */
  close(): Promise<void>;
}

export interface TaskSuite {
  /** the name logs give it */
  readonly name: string;
  /**
   * The tasks of each split (the supervisor, once, at the start of a run): checked here, so that a
   * bad task stops the run before any episode. `wants` says which splits the run uses.
   */
  tasks(ctx: SuiteContext, wants: (split: Split) => boolean): SuiteTasks | Promise<SuiteTasks>;
  /** Starts the hosts one env worker's episodes run on. */
  start(ctx: SuiteWorkerContext): Promise<SuiteHost>;
}
