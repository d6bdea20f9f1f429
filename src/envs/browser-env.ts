// The browser environment: one Chromium, a context per episode (or a kept one, kept-context.ts).
// reset(task) starts an episode on its start URLs; step(reply) executes one action, waits for the
// page and observes it, until the episode ends and is scored (episode-score.ts).
import { randomUUID } from 'node:crypto';
import type { Browser, Page, Response } from 'playwright-core';
import { executeAction, ImpossibleActionError } from './actions/execute.js';
import { parseTtiReply } from './actions/parse-tti.js';
import { parseWebArenaReply } from './actions/parse-webarena.js';
import { type Action, type ActionFormat, describeAction } from './actions/types.js';
import { launchBrowser, newEpisodeContext } from './browser/launch.js';
import { probeLogin, signInPageReached, storageStateProblem } from './browser/login.js';
import { isLocalPage, refusedUrl, requestSchemeAllowed } from './browser/navigation.js';
import { EpisodeSession } from './browser/session.js';
import { EpisodeSetupError, LoginFailedError } from './browser/setup-errors.js';
import { earlyStop } from './early-stop.js';
import type { BrowserEnvConfig, ResetOptions } from './env-config.js';
import { recordOf, verdictOf } from './episode-score.js';
import { type ProbedStop, probeStop, type StopProbeKind, stopProbeKind } from './evaluators/stop-probe.js';
import { errorMessage } from './evaluators/verdict.js';
import { KeptContext } from './kept-context.js';
import { RECHECK_NOTE } from './notes.js';
import { markFresh } from './observation/columns.js';
import { type Observation, type ObservationOptions, observe, stillLoading } from './observation/observe.js';
import { NAVIGATION, NO_NAVIGATION_NOTE, NO_STOP_NOTE } from './offered-actions.js';
import {
  type ActedElement,
  type EndReason,
  type EpisodeRecord,
  type StepRecord,
  writeEpisodeRecord,
} from './record.js';
import type { RunningEpisode } from './running-episode.js';
import { closeQuietly, StepTimeout, withTimeout } from './step-timeout.js';
import { unresolvedPlaceholders } from './tasks/hosts.js';
import type { Task } from './tasks/task.js';

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

/**
 * The browser environment: one Chromium, a fresh context per episode.
 * reset(task) → observation; step(reply) → next observation, until done, when the final page has
 * been scored and the episode record is returned.
 */
export class BrowserEnv {
  readonly config: Readonly<BrowserEnvConfig>;
  private browser: Browser;
  private episode: RunningEpisode | null = null;
  /** A finished episode's context and tab, for the next episode (config.reuseContext). */
  private readonly kept: KeptContext;
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
    this.kept = new KeptContext(config);
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
      this.kept.forget();
      this.browser = await launchBrowser({ executablePath: this.config.executablePath });
    }
    const blocked: string[] = [];
    for (const u of task.startUrls) {
      const missing = unresolvedPlaceholders(u);
      if (missing.length)
        throw new EpisodeSetupError(`task ${task.id}: no host configured for ${missing.join(', ')}`);
      // A task file's URLs were checked as it loaded; a task made in code is checked here, since a
      // confined context does not intercept what the driver asks for (launch.ts).
      if (!requestSchemeAllowed(u) || isLocalPage(u))
        throw new EpisodeSetupError(`task ${task.id}: ${refusedUrl(u) ?? `${u} is refused`}`);
    }
    this.blockedSink = (url) => blocked.push(url);
    const storageState = task.requireLogin ? task.storageState : null;
    const unusable = storageState === null ? null : storageStateProblem(storageState);
    if (unusable !== null) throw new LoginFailedError(`task ${task.id}: login failed: ${unusable}`);
    const hooks = this.config.hooks ?? {};
    const kept = await this.kept.take(this.browser, task, storageState);
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
      };
      return obs.observation;
    } catch (e) {
      void closeQuietly(context);
      if (e instanceof LoginFailedError) throw e;
      throw new EpisodeSetupError(`task ${task.id}: could not start the episode: ${errorMessage(e)}`);
    }
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

    const stop = earlyStop(ep, this.format, this.config.earlyStop);
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
  private async pageEnded(ep: RunningEpisode): Promise<EndReason | null> {
    const ended = this.config.hooks?.ended;
    if (!ended) return null;
    return withTimeout(ended(ep.session.current, ep.task), 5000, 'asking the page whether it ended').catch(
      () => null,
    );
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
    const verdict = await verdictOf(ep, this.config, { endReason, error, score, answer });
    void this.kept.release(this.browser, ep.session);
    const record: EpisodeRecord = recordOf(ep, this.format, { endReason, error, answer, verdict });
    if (this.config.recordDir) writeEpisodeRecord(this.config.recordDir, record, ep.screenshots);
    return { observation: null, done: true, action, record };
  }

  /**
   * What the running episode's task would score if it stopped now with `answer`, without stopping
   * (evaluators/stop-probe.ts): null where the verdict reads what a stop changes or costs a judge
   * (a page's own score, program_html, fuzzy_match), or when no episode runs.
   */
  async probeStop(answer: string): Promise<ProbedStop | null> {
    const ep = this.episode;
    const kind = this.stopProbe;
    if (!ep || kind === null) return null;
    const url = ep.session.current.isClosed() ? ep.observation.url : ep.session.current.url();
    return probeStop(ep.task, answer, url);
  }

  /**
   * How a stop of the running episode's task can be probed (probeStop): by its answer, by the URL
   * alone, or not.
   */
  get stopProbe(): StopProbeKind | null {
    const ep = this.episode;
    if (!ep || this.config.hooks?.score) return null;
    return stopProbeKind(ep.task);
  }

  /** Ends the running episode unscored (a search's rollout, a worker shutting down); its context is kept for the next (config.reuseContext) or closed. */
  async abandon(): Promise<void> {
    const ep = this.episode;
    this.episode = null;
    if (ep) await this.kept.release(this.browser, ep.session);
  }

  async close(): Promise<void> {
    await this.abandon();
    await this.kept.close();
    await this.browser.close().catch(() => {});
  }
}

/** The element an action names, from the observation the action was chosen on. */
function actedElement(observation: Observation, id: string): ActedElement | null {
  const node = observation.nodes.find((n) => n.id === id);
  return node ? { id, role: node.role, name: node.name, bounds: node.bounds } : null;
}
