import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { executeAction, ImpossibleActionError, type Typing } from './actions/execute.js';
import { parseTtiReply } from './actions/parse-tti.js';
import { parseWebArenaReply } from './actions/parse-webarena.js';
import { type Action, type ActionFormat, describeAction, isEquivalent } from './actions/types.js';
import { launchBrowser, newEpisodeContext } from './browser/launch.js';
import { probeLogin, signInPageReached, storageStateProblem } from './browser/login.js';
import { EpisodeSession } from './browser/session.js';
import { EpisodeSetupError, LoginFailedError } from './browser/setup-errors.js';
import type { EpisodeHooks } from './episode-hooks.js';
import { type EvaluationInput, evaluateTask } from './evaluators/evaluate.js';
import type { Judge } from './evaluators/judge.js';
import type { ProgramHtmlHelpers } from './evaluators/program-html.js';
import { programHtmlTarget } from './evaluators/program-html.js';
import { type ProbedStop, probeStop, type StopProbeKind, stopProbeKind } from './evaluators/stop-probe.js';
import { combineVerdicts, errorMessage, type Verdict } from './evaluators/verdict.js';
import { RECHECK_NOTE } from './notes.js';
import type { ElementRef } from './observation/ax-tree.js';
import { markFresh } from './observation/columns.js';
import { type Observation, type ObservationOptions, observe, stillLoading } from './observation/observe.js';
import {
  type ActedElement,
  type EndReason,
  type EpisodeRecord,
  type EpisodeRunInfo,
  type StepRecord,
  writeEpisodeRecord,
} from './record.js';
import { unresolvedPlaceholders } from './tasks/hosts.js';
import type { TaskLabel } from './tasks/labels.js';
import type { Task } from './tasks/task.js';

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

export interface StepInfo {
  /** The policy version that chose this action; kept in the step's record. */
  policyVersion?: number;
}

export interface StepResult {
  /** The next observation; null once the episode is done. */
  observation: Observation | null;
  done: boolean;
  action: Action;
  /** Set when done: the whole episode, scored. */
  record: EpisodeRecord | null;
  /**
   * Whether the step sent a request that may change a site (a method other than GET, HEAD or
   * OPTIONS); absent when the episode ended on it.
   */
  sentUnsafeRequest?: boolean;
}

export { EpisodeSetupError, LoginFailedError, RECHECK_NOTE };

/** The note for a stop on a task that offers none. */
export const NO_STOP_NOTE =
  'this task offers no ANSWER/stop: the page ends the episode itself once the task is done';
export const NO_NAVIGATION_NOTE =
  'this task offers no going back, forward, to a URL or to another tab: it is one page';
/** BrowserGym's nav and tab subsets: the actions a suite without navigation refuses */
const NAVIGATION = new Set<Action['type']>([
  'go_back',
  'go_forward',
  'goto',
  'new_tab',
  'tab_focus',
  'close_tab',
]);

class StepTimeout extends Error {
  override name = 'StepTimeout';
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

interface Episode {
  id: string;
  task: Task;
  horizon: number;
  minTry: number;
  triesLeft: number;
  session: EpisodeSession;
  elements: Map<string, ElementRef>;
  observation: Observation;
  actions: Action[];
  steps: StepRecord[];
  screenshots: Map<number, Buffer>;
  observationOptions: ObservationOptions;
  run: EpisodeRunInfo | undefined;
  labels: TaskLabel | undefined;
  lastAnswer: string | null;
  blocked: string[];
  startedAt: number;
  /**
   * The last state probe's verdict, until an action that can change a site's state
   * (STATE_CHANGING): scrolling, going back and waiting change none, so they need no second tab.
   */
  probedState: boolean | null;
}

/**
 * The browser environment: one Chromium, a fresh context per episode.
 * reset(task) → observation; step(reply) → next observation, until done, when the final page has
 * been scored and the episode record is returned.
 */
export class BrowserEnv {
  readonly config: Readonly<BrowserEnvConfig>;
  private browser: Browser;
  private episode: Episode | null = null;
  /** A finished episode's context and tab, for the next episode (config.reuseContext). */
  private kept: { context: BrowserContext; page: Page } | null = null;
  /** Episodes started in a new browser context, and in a kept one (config.reuseContext). */
  readonly contexts = { created: 0, reused: 0 };
  /**
   * Where this env's time went, ms, summed over its life (a caller reads the difference over an
   * episode): starting episodes, observing pages, executing actions, scoring and closing episodes.
   */
  readonly spent = { startMs: 0, observeMs: 0, executeMs: 0, scoreMs: 0 };
  /** Where the kept context's request filter reports a blocked request: the running episode. */
  private blockedSink: (url: string) => void = () => {};

  private constructor(browser: Browser, config: BrowserEnvConfig) {
    this.browser = browser;
    this.config = config;
  }

  static async launch(config: BrowserEnvConfig = {}): Promise<BrowserEnv> {
    const browser = await launchBrowser({ executablePath: config.executablePath });
    return new BrowserEnv(browser, config);
  }

  get format(): ActionFormat {
    return this.config.actionFormat ?? 'webarena';
  }

  private get actionTimeoutMs(): number {
    return this.config.actionTimeoutMs ?? 30_000;
  }

  /** Starts an episode on the task: new context, start URLs (one tab each), first observation. */
  async reset(task: Task, opts: ResetOptions = {}): Promise<Observation> {
    return this.timed('startMs', () => this.start(task, opts));
  }

  /** Runs `work`, charging its time to `part` less what it charged to observing and scoring. */
  private async timed<T>(part: 'startMs' | 'executeMs', work: () => Promise<T>): Promise<T> {
    const began = performance.now();
    const { observeMs, scoreMs } = this.spent;
    try {
      return await work();
    } finally {
      const inner = this.spent.observeMs - observeMs + (this.spent.scoreMs - scoreMs);
      this.spent[part] += performance.now() - began - inner;
    }
  }

  private async start(task: Task, opts: ResetOptions): Promise<Observation> {
    if (this.episode) await this.abandon();
    if (!this.browser.isConnected()) {
      // Chromium died under us: start another so the worker goes on (a kept context died with it).
      this.kept = null;
      this.browser = await launchBrowser({ executablePath: this.config.executablePath });
    }
    for (const u of task.startUrls) {
      const missing = unresolvedPlaceholders(u);
      if (missing.length)
        throw new EpisodeSetupError(`task ${task.id}: no host configured for ${missing.join(', ')}`);
    }
    const blocked: string[] = [];
    this.blockedSink = (url) => blocked.push(url);
    const storageState = task.requireLogin ? task.storageState : null;
    const unusable = storageState === null ? null : storageStateProblem(storageState);
    if (unusable !== null) throw new LoginFailedError(`task ${task.id}: login failed: ${unusable}`);
    const hooks = this.config.hooks ?? {};
    const kept = await this.reuseKept(task, storageState);
    this.contexts[kept ? 'reused' : 'created'] += 1;
    const context =
      kept?.context ??
      (await newEpisodeContext(this.browser, {
        ...(this.config.viewport ? { viewport: this.config.viewport } : {}),
        storageState,
        allowedOrigins: task.confined ? this.config.allowedOrigins : undefined,
        onBlocked: (url) => this.blockedSink(url),
      }).catch((e: unknown) => {
        throw new EpisodeSetupError(`task ${task.id}: ${errorMessage(e)}`);
      }));
    const loadCap = this.config.loadCapMs ?? 10_000;
    /** The task as this episode runs it (a page may state its intent only once started). */
    let started: Task = task;
    try {
      const session = await withTimeout(
        (async () => {
          await hooks.beforeNavigation?.({ context, task });
          const pages: Page[] = [];
          const responses: (Response | null)[] = [];
          for (const url of task.startUrls) {
            const p = pages.length === 0 && kept ? kept.page : await context.newPage();
            pages.push(p);
            responses.push(await p.goto(url, { timeout: this.actionTimeoutMs, waitUntil: 'commit' }));
          }
          const s = new EpisodeSession(context, pages[0]!);
          await pages[0]!.bringToFront();
          if (!(await s.settle(loadCap, this.config.quietMs))) await s.stopLoading();
          const refused =
            storageState === null ? null : await signInPageReached(pages[0]!, task.startUrls[0]!);
          if (refused !== null) throw new LoginFailedError(`task ${task.id}: login failed: ${refused}`);
          // The kept tab's history holds the last episode's pages: Back must not reach them.
          if (kept) await (await s.client(pages[0]!)).send('Page.resetNavigationHistory');
          if (hooks.start)
            started = await hooks.start({ page: pages[0]!, task, responses, timeoutMs: loadCap });
          return s;
        })(),
        this.actionTimeoutMs * Math.max(1, task.startUrls.length),
        'opening the start URLs',
      );
      const horizon = opts.horizon ?? this.config.horizon ?? 30;
      const minTry = Math.max(1, opts.minTry ?? this.config.minTry ?? 1);
      const startedAt = Date.now();
      const observationOptions: ObservationOptions = {
        ...(this.config.viewport ? { viewport: this.config.viewport } : {}),
        ...this.config.observation,
        ...(opts.screenshot === undefined ? {} : { screenshot: opts.screenshot }),
      };
      const obs = await withTimeout(
        this.observeNow(session, observationOptions),
        this.actionTimeoutMs,
        'the first observation',
      );
      this.episode = {
        id: opts.episodeId ?? randomUUID(),
        task: started,
        horizon,
        minTry,
        triesLeft: minTry,
        session,
        elements: obs.elements,
        observation: obs.observation,
        actions: [],
        steps: [],
        screenshots: new Map(),
        observationOptions,
        run: opts.run,
        labels: opts.labels,
        lastAnswer: null,
        blocked,
        startedAt,
        probedState: null,
      };
      return obs.observation;
    } catch (e) {
      void closeQuietly(context);
      if (e instanceof LoginFailedError) throw e;
      throw new EpisodeSetupError(`task ${task.id}: could not start the episode: ${errorMessage(e)}`);
    }
  }

  /** Whether a task may start in a kept context: confined to the allowed origins, logged in by cookies alone. */
  private reusable(task: Task, storageState: string | null): { cookies: Cookie[] } | null {
    const origins = this.config.allowedOrigins ?? [];
    if (!this.config.reuseContext || !task.confined || origins.length === 0) return null;
    if (storageState === null) return { cookies: [] };
    try {
      const state = JSON.parse(readFileSync(storageState, 'utf8')) as {
        cookies?: Cookie[];
        origins?: { localStorage?: unknown[] }[];
      };
      if ((state.origins ?? []).some((o) => (o.localStorage ?? []).length > 0)) return null;
      return { cookies: state.cookies ?? [] };
    } catch {
      return null; // a new context reports the file's problem
    }
  }

  /**
   * The kept context and tab, cleaned for a new episode: other tabs closed, the tab on about:blank,
   * cookies and the allowed origins' storage (local, session, IndexedDB, caches, service workers)
   * cleared, the task's login cookies added. Null (and the kept context closed) when the task needs
   * a new context or cleaning fails.
   */
  private async reuseKept(
    task: Task,
    storageState: string | null,
  ): Promise<{ context: BrowserContext; page: Page } | null> {
    const kept = this.kept;
    this.kept = null;
    if (kept === null) return null;
    const login = this.reusable(task, storageState);
    if (login === null || kept.page.isClosed() || !this.browser.isConnected()) {
      void closeQuietly(kept.context);
      return null;
    }
    try {
      await withTimeout(
        (async () => {
          for (const p of kept.context.pages()) if (p !== kept.page) await p.close();
          // sessionStorage belongs to the tab: clear it on the page that has it, then leave.
          await kept.page.evaluate('try { sessionStorage.clear() } catch {}').catch(() => {});
          await kept.page.goto('about:blank');
          await kept.context.clearCookies();
          const cdp = await kept.context.newCDPSession(kept.page);
          // The start page then sees only about:blank behind it; the reset once it has loaded removes that too.
          await cdp.send('Page.resetNavigationHistory');
          for (const origin of this.config.allowedOrigins ?? [])
            await cdp.send('Storage.clearDataForOrigin', {
              origin: new URL(origin).origin,
              storageTypes: 'all',
            });
          await cdp.detach();
          if (login.cookies.length > 0) await kept.context.addCookies(login.cookies);
        })(),
        10_000,
        'cleaning the kept context',
      );
      return kept;
    } catch {
      void closeQuietly(kept.context);
      return null;
    }
  }

  /** After an episode: its context is kept for the next one (config.reuseContext) or closed. */
  private release(session: EpisodeSession): void {
    void session.dispose();
    const page = session.context.pages().find((p) => !p.isClosed());
    if (this.config.reuseContext && !session.crashed && page !== undefined && this.browser.isConnected()) {
      if (this.kept) void closeQuietly(this.kept.context);
      this.kept = { context: session.context, page };
      return;
    }
    void closeQuietly(session.context);
  }

  /**
   * Whether the task's login holds now, as a new episode would use it (after a failed one: the
   * host's repair is this check). Null when it does, or when the task logs in to nothing.
   */
  async checkLogin(task: Task): Promise<string | null> {
    if (!task.requireLogin || task.storageState === null || task.startUrls.length === 0) return null;
    return probeLogin(this.browser, task.storageState, task.startUrls[0]!, this.actionTimeoutMs);
  }

  /** The running episode's task, as the episode sees it (with the intent its page stated, say). */
  get task(): Task | null {
    return this.episode?.task ?? null;
  }

  /**
   * Observes; a navigation that lands mid-observation, or a page caught still loading (a form
   * submitted by Enter can start navigating after the step's settle found the old page quiet, more
   * often on a busy machine), gets the page time to load, then another look (as WebArena retries).
   */
  private async observeNow(session: EpisodeSession, options: ObservationOptions) {
    const began = performance.now();
    try {
      return await this.observeAgain(session, options);
    } finally {
      this.spent.observeMs += performance.now() - began;
    }
  }

  private async observeAgain(session: EpisodeSession, options: ObservationOptions) {
    for (let attempt = 0; ; attempt++) {
      let seen: Awaited<ReturnType<typeof observe>> | null = null;
      try {
        seen = await observe(session.current, await session.client(), options);
      } catch (e) {
        if (attempt >= 2 || session.crashed || session.current.isClosed()) throw e;
      }
      if (seen !== null && (attempt >= 2 || !stillLoading(seen.observation))) return seen;
      if (!(await session.settle(this.config.loadCapMs ?? 10_000, this.config.quietMs)))
        await session.stopLoading();
    }
  }

  private parse(reply: string): Action {
    return this.format === 'tti' ? parseTtiReply(reply) : parseWebArenaReply(reply);
  }

  /** Takes the model's reply (or an already parsed action) and advances the episode one step. */
  async step(replyOrAction: string | Action, info: StepInfo = {}): Promise<StepResult> {
    return this.timed('executeMs', () => this.advance(replyOrAction, info));
  }

  private async advance(replyOrAction: string | Action, info: StepInfo): Promise<StepResult> {
    const ep = this.episode;
    if (!ep) throw new Error('step() before reset(): start an episode with reset(task) first');
    const reply = typeof replyOrAction === 'string' ? replyOrAction : null;
    const read = typeof replyOrAction === 'string' ? this.parse(replyOrAction) : replyOrAction;
    // an answer in a form the suite cannot read (a structured response, say) is an invalid action
    const answerError =
      read.type === 'stop' ? (this.config.hooks?.checkAnswer?.(read.answer, ep.task) ?? null) : null;
    const parsed: Action = answerError === null ? read : { type: 'none', error: answerError };
    const action: Action =
      parsed.type === 'stop' && this.config.offerStop === false
        ? { type: 'none', error: NO_STOP_NOTE }
        : NAVIGATION.has(parsed.type) && this.config.offerNavigation === false
          ? { type: 'none', error: NO_NAVIGATION_NOTE }
          : parsed;
    const started = Date.now();
    const step: StepRecord = {
      index: ep.steps.length,
      url: ep.observation.url,
      observation: ep.observation.text,
      notes: ep.observation.notes,
      reply,
      action,
      actionText: describeAction(action),
      result: [],
      startedAt: new Date(started).toISOString(),
      actMs: 0,
      observeMs: 0,
      ...(info.policyVersion === undefined ? {} : { policyVersion: info.policyVersion }),
    };
    if ('elementId' in action && action.elementId !== undefined)
      step.target = actedElement(ep.observation, action.elementId);
    if (ep.observation.screenshot) {
      step.screenshotFile = `step-${String(step.index).padStart(3, '0')}.jpg`;
      ep.screenshots.set(step.index, ep.observation.screenshot);
    }
    ep.steps.push(step);
    ep.actions.push(action);

    const episodeLeft = (this.config.episodeTimeoutMs ?? 600_000) - (started - ep.startedAt);
    if (episodeLeft <= 0) return this.finish(action, 'episode_timeout', 'the episode ran out of time', false);

    if (action.type === 'stop') {
      ep.lastAnswer = action.answer;
      ep.triesLeft -= 1;
      if (ep.triesLeft <= 0) return this.finish(action, 'answer', null, true);
      step.result.push(RECHECK_NOTE);
    } else if (action.type === 'none') {
      step.result.push(`Invalid action: ${action.error}`);
    }

    const budget = Math.min(this.actionTimeoutMs, episodeLeft);
    const unsafeBefore = ep.session.unsafeRequests;
    try {
      await withTimeout(
        (async () => {
          // Navigations get a little less than the step so a slow server is a failed action (a
          // note), while only a tab that stops answering reaches the step's own timeout.
          const deadline = started + budget;
          if (STATE_CHANGING.has(action.type)) ep.probedState = null;
          await executeAction(ep.session, ep.elements, action, {
            typing: this.config.typing ?? 'keys',
            timeoutMs: Math.max(100, budget - Math.min(1000, budget / 4)),
          });
          const left = deadline - Date.now() - Math.min(500, budget / 10);
          const settled = await ep.session.settle(
            Math.max(1, Math.min(this.config.loadCapMs ?? 10_000, left)),
            this.config.quietMs,
          );
          if (!settled) await ep.session.stopLoading();
        })(),
        budget,
        `executing ${describeAction(action)}`,
      );
    } catch (e) {
      if (e instanceof StepTimeout) {
        const reason = budget < this.actionTimeoutMs ? 'episode_timeout' : 'action_timeout';
        return this.finish(
          action,
          ep.session.crashed ? 'crash' : reason,
          ep.session.crashed ?? e.message,
          false,
        );
      }
      if (ep.session.crashed) return this.finish(action, 'crash', ep.session.crashed, false);
      if (!(e instanceof ImpossibleActionError))
        await withTimeout(ep.session.stopLoading(), 2000, 'stop').catch(() => {});
      const why = e instanceof ImpossibleActionError ? e.message : errorMessage(e);
      step.result.push(`The action "${describeAction(action)}" failed: ${why}`);
    }
    step.actMs = Date.now() - started;

    const ended = await this.pageEnded(ep);
    if (ended) return this.finish(action, ended, null, true);

    const stop = this.earlyStop(ep);
    if (stop) return this.finish(action, stop.reason, null, true, stop.answer);

    const t0 = Date.now();
    try {
      const left = (this.config.episodeTimeoutMs ?? 600_000) - (t0 - ep.startedAt);
      const obs = await withTimeout(
        this.observeNow(ep.session, ep.observationOptions),
        Math.max(1, Math.min(this.actionTimeoutMs, left)),
        'observing the page',
      );
      markFresh(ep.observation, obs.observation);
      ep.elements = obs.elements;
      ep.observation = obs.observation;
      ep.observation.notes = step.result;
    } catch (e) {
      const reason: EndReason = ep.session.crashed
        ? 'crash'
        : e instanceof StepTimeout
          ? 'action_timeout'
          : 'error';
      return this.finish(action, reason, ep.session.crashed ?? `observing failed: ${errorMessage(e)}`, false);
    }
    step.observeMs = Date.now() - t0;
    return {
      observation: ep.observation,
      done: false,
      action,
      record: null,
      sentUnsafeRequest: ep.session.unsafeRequests > unsafeBefore,
    };
  }

  /** An end the page itself has reached, as the suite's hooks tell it (a page that can no longer say: none). */
  private async pageEnded(ep: Episode): Promise<EndReason | null> {
    const ended = this.config.hooks?.ended;
    if (!ended) return null;
    return withTimeout(ended(ep.session.current, ep.task), 5000, 'asking the page whether it ended').catch(
      () => null,
    );
  }

  /**
   * WebArena's early stops, checked before the next decision: the horizon, parse failures, repeats.
   * WebArena answers "Early stop: …"; TTI's loop has no such answer (its episodes end on an ANSWER or
   * at max_iter with "N/A"), so in the TTI format every early stop leaves the last answer given, else
   * "N/A" — an early stop is not an answer, and the digit in "… for 3 times" must not pass a
   * `must_include: ["3"]`.
   */
  private earlyStop(ep: Episode): { reason: EndReason; answer: string } | null {
    const n = ep.actions.length;
    const stop = (reason: EndReason, webarena: string) => ({
      reason,
      // The last answer stands when re-checking ran out of steps.
      answer: ep.lastAnswer ?? (this.format === 'tti' ? 'N/A' : webarena),
    });
    if (n >= ep.horizon) return stop('horizon', `Early stop: Reach max steps ${ep.horizon}`);
    const k = this.config.earlyStop?.parsingFailures ?? 3;
    if (k > 0 && n >= k && ep.actions.slice(-k).every((a) => a.type === 'none')) {
      return stop('early_stop', `Early stop: Failed to parse actions for ${k} times`);
    }
    const r = this.config.earlyStop?.repeatedActions ?? 3;
    const last = ep.actions[n - 1];
    if (r > 0 && last) {
      if (last.type !== 'type') {
        // Scrolling on through a list longer than a few screens is progress, not a loop, while each
        // scroll still shows something new (checked before the last one's page is read: the one
        // before it moved the view); the repeat counts once a scroll changed nothing.
        const moved =
          last.type === 'scroll' && n >= 2 && ep.steps[n - 1]?.observation !== ep.steps[n - 2]?.observation;
        if (n >= r && !moved && ep.actions.slice(-r).every((a) => isEquivalent(a, last))) {
          return stop('early_stop', `Early stop: Same action for ${r} times`);
        }
      } else if (ep.actions.filter((a) => isEquivalent(a, last)).length >= r) {
        return stop('early_stop', `Early stop: Same typing action for ${r} times`);
      }
    }
    return null;
  }

  private async finish(
    action: Action,
    endReason: EndReason,
    error: string | null,
    score: boolean,
    earlyAnswer?: string,
  ): Promise<StepResult> {
    const began = performance.now();
    try {
      return await this.scoreAndClose(action, endReason, error, score, earlyAnswer);
    } finally {
      this.spent.scoreMs += performance.now() - began;
    }
  }

  private async scoreAndClose(
    action: Action,
    endReason: EndReason,
    error: string | null,
    score: boolean,
    earlyAnswer?: string,
  ): Promise<StepResult> {
    const ep = this.episode!;
    this.episode = null;
    const answer = earlyAnswer ?? ep.lastAnswer ?? '';
    const livePage = ep.session.current.isClosed() ? null : ep.session.current;
    const hooks = this.config.hooks ?? {};
    const scoring = async (): Promise<Verdict> =>
      hooks.score
        ? hooks.score({ page: livePage, task: ep.task, endReason, answer })
        : evaluateTask({
            task: ep.task,
            answer,
            page: livePage,
            judge: this.config.judge,
            helpers: this.config.helpers,
            ...(this.config.answerJudge ? { answerJudge: this.config.answerJudge } : {}),
            endedWithAnswer: endReason === 'answer',
            finalObservation: {
              url: ep.observation.url,
              text: ep.observation.text,
              screenshots: [...ep.screenshots.entries()]
                .sort((a, b) => a[0] - b[0])
                .slice(-3)
                .map(([, shot]) => shot),
            },
            navigationTimeoutMs: this.config.loadCapMs,
            settle: this.settlerOf(ep),
          });
    const scored = score
      ? await withTimeout(
          scoring(),
          this.config.evaluationTimeoutMs ?? 120_000,
          'scoring the final page',
        ).catch((e: unknown) =>
          combineVerdicts([
            {
              evaluator: hooks.evaluator ?? 'judge',
              score: 0,
              status: 'error',
              why: `scoring failed: ${errorMessage(e)}`,
            },
          ]),
        )
      : combineVerdicts([
          {
            evaluator: 'judge',
            score: 0,
            status: 'error',
            why: `not scored: the episode ended with ${endReason}: ${error}`,
          },
        ]);
    this.release(ep.session);
    const record: EpisodeRecord = {
      episodeId: ep.id,
      task: {
        id: ep.task.id,
        kind: ep.task.kind,
        intent: ep.task.intent,
        sites: ep.task.sites,
        startUrls: ep.task.startUrls,
        source: ep.task.source,
        ...ep.labels,
      },
      ...(ep.run ? { run: ep.run } : {}),
      horizon: ep.horizon,
      minTry: ep.minTry,
      actionFormat: this.format,
      steps: ep.steps,
      answer,
      endReason,
      error,
      blockedRequests: ep.blocked,
      verdict: scored,
      startedAt: new Date(ep.startedAt).toISOString(),
      durationMs: Date.now() - ep.startedAt,
    };
    if (this.config.recordDir) writeEpisodeRecord(this.config.recordDir, record, ep.screenshots);
    return { observation: null, done: true, action, record };
  }

  /**
   * What the running episode's task would score if it stopped now with `answer`, without stopping
   * (evaluators/stop-probe.ts): null where the verdict reads what a stop changes or costs a judge
   * (a page's own score, program_html of the last page, fuzzy_match), or when no episode runs.
   * program_html on pages it names is scored in a second tab of the episode's context, closed
   * after: the episode's own page is not touched.
   */
  async probeStop(answer: string): Promise<ProbedStop | null> {
    const ep = this.episode;
    const kind = this.stopProbe;
    if (!ep || kind === null) return null;
    if (kind === 'state') {
      ep.probedState ??= await this.probeState(ep);
      return { success: ep.probedState };
    }
    const url = ep.session.current.isClosed() ? ep.observation.url : ep.session.current.url();
    return probeStop(ep.task, answer, url);
  }

  /** How program_html waits for a page it navigated to: the env's quiet-network wait, then stop loading. */
  private settlerOf(ep: Episode): (page: Page, capMs: number) => Promise<void> {
    return async (page, capMs) => {
      if (!(await ep.session.settle(capMs, this.config.quietMs, page))) await ep.session.stopLoading();
    };
  }

  /** Whether every program_html target of the running task passes now, read in a second tab. */
  private async probeState(ep: Episode): Promise<boolean> {
    const side = await ep.session.context.newPage();
    try {
      for (const target of ep.task.eval?.program_html ?? []) {
        const r = await programHtmlTarget(side, target, {
          helpers: this.config.helpers,
          navigationTimeoutMs: this.config.loadCapMs,
          settle: this.settlerOf(ep),
        });
        // the product over targets: the first that fails decides
        if (r.score !== 1) return false;
      }
      return true;
    } catch {
      return false;
    } finally {
      await side.close().catch(() => {});
    }
  }

  /**
   * How a stop of the running episode's task can be probed (probeStop): by its answer, by the URL
   * alone, by the sites' state, or not.
   */
  get stopProbe(): StopProbeKind | null {
    const ep = this.episode;
    if (!ep || this.config.hooks?.score) return null;
    return stopProbeKind(ep.task);
  }

  /** Drops the running episode without scoring it (e.g. its worker is shutting down). */
  async abandon(): Promise<void> {
    const ep = this.episode;
    this.episode = null;
    if (ep) await closeQuietly(ep.session.context);
  }

  async close(): Promise<void> {
    await this.abandon();
    if (this.kept) await closeQuietly(this.kept.context);
    this.kept = null;
    await this.browser.close().catch(() => {});
  }
}

/** Actions that can change what a site stores (a form's submit, a vote, a key that submits). */
const STATE_CHANGING = new Set<Action['type']>([
  'click',
  'type',
  'select_option',
  'press',
  'hover',
  'drag',
  'mouse_click',
  'mouse_drag',
]);

/** The element an action names, from the observation the action was chosen on. */
function actedElement(observation: Observation, id: string): ActedElement | null {
  const node = observation.nodes.find((n) => n.id === id);
  return node ? { id, role: node.role, name: node.name, bounds: node.bounds } : null;
}

type Cookie = Parameters<BrowserContext['addCookies']>[0][number];

/** Closing a context whose renderer hangs can itself hang; never let that block the worker. */
async function closeQuietly(context: { close(): Promise<void> }): Promise<void> {
  await withTimeout(context.close(), 10_000, 'closing the context').catch(() => {});
}
