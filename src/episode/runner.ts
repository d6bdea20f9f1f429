// The episode: reset the task's host, then observe, act (the policy, asked over the act socket),
// execute, and again until the env ends it with a scored record (its verdict); then the
// trajectory goes to replay and the result to the supervisor. A strategy (src/strategies) may
// decide before the policy, or run the episode as a search of rollouts.

import type { Config } from '../config/index.js';
import type { Action, BrowserEnv, Observation, ResetOptions, Task } from '../envs/index.js';
import type {
  ActionOffers,
  EpisodeResultMessage,
  EpisodeTiming,
  TaskAssignmentMessage,
  TrajectoryMessage,
} from '../protocol/index.js';
import { type Decision, rolloutSteps, type Taken } from '../search/index.js';
import { Acting, type ActingWorker, type DecideOptions, type EpisodeContext } from './acting.js';
import { policyInputOf } from './policy-input.js';
import type { Episode, Outcome, Strategy } from './strategy.js';

/** What the runner needs of its worker. */
export interface EpisodeWorker extends Omit<ActingWorker, 'count' | 'abandon'> {
  config: Config;
  env: BrowserEnv;
  counters: Record<string, number>;
  labels: Record<string, string>;
  log: { debug(m: string): void; info(m: string): void; warn(m: string): void };
  /** the env records episodes to the run directory (env.record_episodes) */
  recording: boolean;
  /** the suite's task for an assignment, and its labels */
  task(assignment: TaskAssignmentMessage): {
    task: Task;
    label: ResetOptions['labels'];
    pointer?: NonNullable<ActionOffers['pointer']>;
  };
  /** before each reset: the suite's own (a fresh site) */
  beforeReset(): Promise<void>;
  /** after each reset, which relaunches a Chromium that died */
  afterReset(): void;
  /** sends the trajectory until replay acknowledges it; whether replay kept it */
  store(trajectory: TrajectoryMessage): Promise<boolean>;
}

export class EpisodeRunner {
  private readonly acting: Acting;
  private readonly warned = new Set<string>();

  constructor(
    private readonly worker: EpisodeWorker,
    private readonly strategies: readonly Strategy[],
  ) {
    this.acting = new Acting({
      ...worker,
      count: (k, by) => this.count(k, by),
      abandon: () => worker.env.abandon(),
    });
  }

  private count(key: string, by = 1): void {
    this.worker.counters[key] = (this.worker.counters[key] ?? 0) + by;
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.worker.log.warn(message);
  }

  /** Eval episodes are few and are what people look at; collection pays for screenshots only when asked. */
  private screenshotFor(assignment: TaskAssignmentMessage): boolean {
    const { screenshot } = this.worker.config.env;
    return this.worker.recording && (screenshot === true || (screenshot === 'eval' && assignment.greedy));
  }

  /**
   * Runs one episode; returns its result for the supervisor (the trajectory is stored by then).
   * `taskWaitMs`: how long the worker waited for this task, the first part of its timing.
   */
  async run(
    assignment: TaskAssignmentMessage,
    requestId: number,
    taskWaitMs = 0,
  ): Promise<EpisodeResultMessage> {
    const { worker, acting } = this;
    const { env } = worker;
    const { task, label, pointer } = worker.task(assignment);
    // The suite's offers, with the pointer actions this task's page needs (a drag, a point).
    const offers: ActionOffers =
      pointer !== undefined && pointer.length > 0 ? { ...worker.offers, pointer } : worker.offers;
    const started = performance.now();
    const envBefore = { ...env.spent };
    const own = { hostMs: 0, policyMs: 0 };
    worker.log.debug(`episode ${assignment.episodeId} (task ${task.id}, ${assignment.split}): started`);
    const start = async (episodeId: string): Promise<Observation> => {
      const t = performance.now();
      await worker.beforeReset();
      own.hostMs += performance.now() - t;
      const first = await env.reset(task, {
        horizon: assignment.horizon,
        minTry: assignment.minTry,
        episodeId,
        screenshot: worker.chatPolicy || this.screenshotFor(assignment),
        labels: label,
        run: {
          iteration: assignment.iteration,
          split: assignment.split,
          mode: assignment.greedy ? 'eval' : 'collect',
          workerId: worker.workerId,
          taskFile: assignment.taskFile,
        },
      });
      worker.afterReset();
      return first;
    };
    const usage = { promptTokens: 0, completionTokens: 0 };
    const first = await start(assignment.episodeId);
    // A page may state its instruction only once its episode has started.
    const context: EpisodeContext = {
      intent: env.task?.intent ?? task.intent,
      site: task.sites[0] ?? 'general',
      usage,
      offers,
    };
    const taking = this.strategies.filter((s) => s.takesPart(assignment));
    const before = taking.filter((s) => s.before !== undefined);
    const decide = async (
      page: Observation,
      taken: readonly Taken[],
      o: DecideOptions,
    ): Promise<Decision> => {
      let failed: Set<string> | undefined;
      for (const s of before) {
        const preempt = await s.before!(episode, page, taken);
        if (preempt?.decision) return preempt.decision;
        if (preempt) failed = new Set([...(failed ?? []), ...preempt.failed]);
      }
      return acting.decide(assignment, context, page, taken, {
        ...o,
        ...(failed ? { failedAnswers: failed } : {}),
      });
    };
    const episode: Episode = {
      assignment,
      config: worker.config,
      env,
      offers,
      counters: worker.counters,
      labels: worker.labels,
      first,
      start: async (k) => (k === 0 ? first : start(`${assignment.episodeId}~${k}`)),
      step: async (action: Action | string, policyVersion: number) => {
        const result = await env.step(action, { policyVersion });
        this.count('steps');
        return result;
      },
      act: async (page, taken, o: DecideOptions = {}): Promise<Decision> => {
        const t = performance.now();
        try {
          return await decide(page, taken, o);
        } finally {
          own.policyMs += performance.now() - t;
        }
      },
      policyInput: (page, taken) =>
        policyInputOf(acting.requestOf(assignment, context, page, taken, 0).request),
      features: (page, taken) => acting.featuresAt(assignment, context, page, taken),
      servedVersion: () => acting.servedVersion(assignment),
      count: (key, by) => this.count(key, by),
      warnOnce: (key, message) => this.warnOnce(key, message),
    };

    const runner = taking.find((s) => s.run !== undefined);
    const outcome = runner ? await runner.run!(episode) : await plainEpisode(episode);

    const { record, taken } = outcome;
    const reward = record?.verdict.success ? 1 : 0;
    let kept = false;
    if (assignment.toReplay && record !== null)
      kept = await worker.store(this.trajectoryOf(assignment, task, context, outcome, reward));
    this.count('episodes');
    if (reward > 0) this.count('successes');
    if (record !== null && record.verdict.status !== 'scored') this.count('unscored');
    // only the numbers the strategy declared travel, under its name
    const words = runner?.extras ?? {};
    const extras = Object.entries(outcome.extras ?? {}).filter(([k]) => k in words);
    // a strategy that runs the episode is a search: with no rollout reported, its budget ran out
    const endReason = record?.endReason ?? (runner ? 'search_budget' : 'unrecorded');
    const searched =
      runner && extras.length > 0
        ? `; ${runner.name}: ${extras.map(([k, v]) => `${words[k]} ${v ?? 'n/a'}`).join(', ')}`
        : '';
    const durationMs = Math.round(performance.now() - started);
    worker.log.info(
      `episode ${assignment.episodeId} (task ${task.id}, ${assignment.split}): ${endReason} after ` +
        `${record?.steps.length ?? 0} steps, reward ${reward}${kept ? ', kept' : ''}` +
        `${record ? ` (${record.verdict.why})` : ''}${searched}`,
    );
    return {
      type: 'episode_result',
      workerId: worker.workerId,
      ...worker.signature,
      requestId,
      episodeId: assignment.episodeId,
      taskFile: assignment.taskFile,
      taskId: task.id,
      split: assignment.split,
      iteration: assignment.iteration,
      reward,
      // a page's own reward (−1…1) where it gives one: the eval tables' mean reward
      ...(record?.verdict.pageReward ? { score: record.verdict.score } : {}),
      // what collection cost: a search's replayed and acted steps all count
      steps: outcome.envSteps,
      answer: record?.answer ?? null,
      ...(record?.verdict.lucky ? { lucky: record.verdict.lucky } : {}),
      endReason,
      kept,
      policyVersions: [...new Set(taken.map((t) => t.policyVersion))],
      durationMs,
      timing: timingOf(durationMs, taskWaitMs, own, envBefore, env.spent),
      ...(worker.chatPolicy ? { usage } : {}),
      ...(runner && extras.length > 0
        ? { extras: extras.map(([name, value]) => ({ strategy: runner.name, name, value })) }
        : {}),
    };
  }

  private trajectoryOf(
    assignment: TaskAssignmentMessage,
    task: Task,
    context: EpisodeContext,
    outcome: Outcome,
    reward: number,
  ): TrajectoryMessage {
    const record = outcome.record!;
    const { worker, acting } = this;
    let lastVersion = outcome.taken[0]?.policyVersion ?? 0;
    return {
      type: 'trajectory',
      // replay takes a trajectory only from the worker it names, by that worker's key
      workerId: worker.workerId,
      ...worker.signature,
      episodeId: assignment.episodeId,
      taskId: task.id,
      site: task.sites[0] ?? 'unknown',
      intent: context.intent,
      iteration: assignment.iteration,
      reward,
      ...(record.verdict.pageReward
        ? { rawReward: record.verdict.pageReward.raw, discountedReward: record.verdict.pageReward.discounted }
        : {}),
      offers: context.offers,
      answer: record.answer,
      horizon: assignment.horizon,
      steps: rolloutSteps(record, outcome.taken).map((s) => {
        const wire = s.taken ? acting.wireOf(s.taken.observation) : null;
        // A step no decision of this episode chose (one the env recorded past the last) is of the
        // version before it, not 0: replay's lag bound reads the oldest step's version.
        if (s.taken) lastVersion = s.taken.policyVersion;
        return {
          observation: s.observation,
          url: wire?.url ?? s.url,
          nodes: wire?.nodes ?? { ids: [], roles: [], names: [], depths: [], inViewport: [] },
          note: wire?.note ?? null,
          reply: s.reply,
          action: s.action,
          policyVersion: lastVersion,
        };
      }),
    };
  }
}

/** The episode's timing: the env's parts over the episode, the host's reset, the policy's wait, the rest. */
function timingOf(
  durationMs: number,
  taskWaitMs: number,
  own: { hostMs: number; policyMs: number },
  before: BrowserEnv['spent'],
  after: BrowserEnv['spent'],
): EpisodeTiming {
  const parts = {
    startMs: own.hostMs + after.startMs - before.startMs,
    observeMs: after.observeMs - before.observeMs,
    policyMs: own.policyMs,
    executeMs: after.executeMs - before.executeMs,
    scoreMs: after.scoreMs - before.scoreMs,
  };
  const measured = Object.values(parts).reduce((a, b) => a + b, 0);
  const tenth = (ms: number) => Math.round(Math.max(0, ms) * 10) / 10;
  const [startMs, observeMs, policyMs, executeMs, scoreMs] = Object.values(parts).map(tenth) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return {
    taskWaitMs: tenth(taskWaitMs),
    startMs,
    observeMs,
    policyMs,
    executeMs,
    scoreMs,
    otherMs: tenth(durationMs - measured),
  };
}

/** The plain episode: the policy acts on each page until the env ends the episode. */
async function plainEpisode(episode: Episode): Promise<Outcome> {
  const taken: Taken[] = [];
  let record = null;
  let observation: Observation | null = episode.first;
  while (observation !== null) {
    const decision = await episode.act(observation, taken);
    taken.push({ observation, ...decision });
    const result = await episode.step(decision.reply, decision.policyVersion);
    observation = result.observation;
    if (result.done) record = result.record;
  }
  return { record, taken, envSteps: taken.length };
}
