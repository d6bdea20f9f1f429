// The env role: one per web host. It drives one Chromium (src/envs), pulls tasks from the
// supervisor (pull-based, so a busy worker never holds more than it runs), asks inference for each
// action, and pushes the finished, scored trajectory to replay.
//
// The run's task suite (src/suites, `env.suite`) starts the worker's web host(s) (its own embedded
// sites, say: one independent instance per env worker, reset before every episode, restarted
// together with the worker), turns task refs into tasks, and says how the browser shows and runs
// its pages.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Action,
  type AnswerJudge,
  BrowserEnv,
  chatJudges,
  describeAction,
  type EpisodeRecord,
  type Judge,
  type Observation,
  observationColumns,
  parseTtiReply,
  parseWebArenaReply,
  ttiActionText,
  VIEWPORT,
} from '../../envs/index.js';
import { apiKeyFrom, ChatClient } from '../../model/chat/index.js';
import {
  actionSignature,
  candidatesWithEvidence,
  featuresOf,
  type PolicyFeatures,
  type TrailStep,
  taskProgress,
} from '../../model/without-tfjs.js';
import {
  Channel,
  type EpisodeResultMessage,
  Inbound,
  Requester,
  type TaskAssignmentMessage,
  type TrajectoryMessage,
  type Observation as WireObservation,
} from '../../protocol/index.js';
import { ownBrowsers, reapBrowsers, recordBrowsers } from '../../run/index.js';
import {
  branchSearch,
  type Decision,
  exploratorySteps,
  probeStops,
  type RolloutStep,
  rolloutSteps,
  type SearchStats,
  type StopProbeCounts,
  type Taken,
  wayBack,
} from '../../search/index.js';
import { loadSuite, suiteWorkerContext } from '../../suites/index.js';
import { mixSeeds, SeededRandom } from '../../util/index.js';
import { HostHealth } from './host-health.js';
import { policyInputOf } from './policy-input.js';
import { resetChangedSites } from './site-reset.js';
import type { RoleContext, RoleMain } from './worker-shell.js';

const TASK_REQUEST_TIMEOUT_MS = 5000;
/** How long replay and the supervisor have to acknowledge, and how often the env asks again. */
const ACK_TIMEOUT_MS = 10000;
const ACK_ATTEMPTS = 6;
const ACT_RESEND_MS = 5000;
const EPISODE_ATTEMPTS = 2;
const EPISODE_RETRY_MS = 1000;
/** A task is asked for only if the web host answered within this long. */
const HOST_RECHECK_MS = 5000;
/** How long the `host-down` fault keeps the worker's own host closed. */
const HOST_OUTAGE_MS = 10000;

function toWire(observation: Observation, viewport: { width: number; height: number }): WireObservation {
  return {
    text: observation.text,
    url: observation.url,
    nodes: observationColumns(observation.nodes, viewport),
    note: observation.notes.length > 0 ? observation.notes.join('\n') : null,
    screenshotFrame: null,
  };
}

/** The judges `judge.kind` asks for: none, the policy's endpoint and model (as TTI), or another endpoint. */
function configuredJudges(ctx: RoleContext): { judge?: Judge; answerJudge?: AnswerJudge } {
  const { judge, chat, policy_lm } = ctx.config;
  if (judge.kind === 'none') return {};
  if (judge.kind === 'policy' && policy_lm === 'tfjs')
    throw new Error(
      "judge.kind 'policy' needs a chat-model policy_lm (it is 'tfjs'): use judge.kind 'endpoint'",
    );
  if (judge.kind === 'endpoint' && (judge.base_url === null || judge.model === null))
    throw new Error("judge.kind 'endpoint' needs judge.base_url and judge.model");
  const own = judge.kind === 'endpoint';
  const client = new ChatClient({
    baseUrl: own ? (judge.base_url ?? '') : chat.base_url,
    apiKey: apiKeyFrom(own ? judge.api_key_env : chat.api_key_env),
    timeoutMs: chat.timeout_ms,
    maxRetries: chat.max_retries,
    backoffInitialMs: chat.backoff_initial_ms,
    backoffMaxMs: chat.backoff_max_ms,
    onRetry: (why) => ctx.log.warn(`judge request retry: ${why}`),
  });
  return chatJudges({
    client,
    model: own ? (judge.model ?? '') : policy_lm,
    maxTokens: judge.max_tokens,
    prompt: judge.prompt,
    onUsage: (u) => {
      ctx.counters.judgePromptTokens = (ctx.counters.judgePromptTokens ?? 0) + u.promptTokens;
      ctx.counters.judgeCompletionTokens = (ctx.counters.judgeCompletionTokens ?? 0) + u.completionTokens;
    },
  });
}

export const envRole: RoleMain = async (ctx) => {
  // A predecessor's Chromium that outlived it goes first; this worker's own is recorded for its successor.
  const runDir = ctx.runDir;
  if (runDir !== null) {
    const killed = reapBrowsers(runDir, ctx.workerId);
    if (killed.length > 0) ctx.log.warn(`killed ${killed.length} Chromium process(es) a predecessor left`);
  }
  let recorded = '';
  const recordOwnBrowsers = (): void => {
    if (runDir === null) return;
    const browsers = ownBrowsers();
    const now = JSON.stringify(browsers.map((b) => b.pid));
    if (now === recorded) return;
    recordBrowsers(runDir, ctx.workerId, browsers);
    ctx.log.info(`Chromium pid(s) ${now} recorded in ${runDir}/pids`);
    recorded = now;
  };
  const suite = await loadSuite(ctx.config);
  const host = await suite.start(
    suiteWorkerContext({
      config: ctx.config,
      workerId: ctx.workerId,
      runDir: ctx.runDir,
      log: { info: (m) => ctx.log.info(m), warn: (m) => ctx.log.warn(m) },
    }),
  );
  const health = new HostHealth(
    () => host.origins,
    (down, label) => {
      ctx.counters.hostDown = down ? 1 : 0;
      ctx.labels.host = label;
    },
    (message) => ctx.log.warn(message),
  );
  // A chat policy sees a set-of-marks screenshot every step (TTI's multimodal prompt); the
  // trainable policy reads the text, and screenshots go only into records, per episode, below.
  const chatPolicy = ctx.config.policy_lm !== 'tfjs';
  // The trainable policy's features are made here, where the page is (model.featurize).
  const featurizeHere = !chatPolicy && ctx.config.model.featurize === 'env';
  const recording = ctx.config.env.record_episodes && ctx.runDir !== null;
  const viewport = host.browser.viewport ?? VIEWPORT;
  const judges = configuredJudges(ctx);
  // What the suite offers and how it shows its pages (stop offered and WebArena's text by default).
  const offers = host.browser.offers ?? { stop: true };
  const flags = ctx.config.env.observation_flags ?? host.browser.flags ?? false;
  const env = await BrowserEnv.launch({
    viewport,
    ...(host.browser.hooks ? { hooks: host.browser.hooks } : {}),
    offerStop: offers.stop,
    offerNavigation: offers.navigation ?? true,
    observation: { flags, ...(chatPolicy ? { setOfMarks: true } : {}) },
    ...judges,
    actionFormat: ctx.config.env.action_format,
    actionTimeoutMs: ctx.config.env.action_timeout_ms,
    typing: ctx.config.env.typing,
    reuseContext: ctx.config.env.reuse_context,
    episodeTimeoutMs: ctx.config.env.episode_timeout_ms,
    allowedOrigins: host.origins,
    ...(recording ? { recordDir: path.join(ctx.runDir ?? '.', 'episodes') } : {}),
  });

  recordOwnBrowsers();

  const taskChannel = Channel.create('tasks', 'dealer', Inbound.tasksToEnv, ctx.rejected, ctx.tuning);
  taskChannel.connect(ctx.endpoints.tasks);
  const tasks = new Requester(taskChannel);
  const actChannel = Channel.create('act', 'dealer', Inbound.actToEnv, ctx.rejected, ctx.tuning);
  // One DEALER connected to every inference worker: requests are spread over them. The set changes
  // when an inference worker on another machine joins or is lost (an `act_endpoints` command).
  let actEndpoints = new Set(Object.values(ctx.endpoints.act));
  for (const endpoint of actEndpoints) actChannel.connect(endpoint);
  const useActEndpoints = (act: Record<string, string>): void => {
    const next = new Set(Object.values(act));
    for (const endpoint of actEndpoints) if (!next.has(endpoint)) actChannel.disconnect(endpoint);
    for (const endpoint of next) if (!actEndpoints.has(endpoint)) actChannel.connect(endpoint);
    if (next.size !== actEndpoints.size || [...next].some((e) => !actEndpoints.has(e)))
      ctx.log.info(`act endpoints now: ${[...next].join(', ') || 'none'}`);
    actEndpoints = next;
  };
  const act = new Requester(actChannel);
  const trajectoryChannel = Channel.create(
    'trajectories',
    'dealer',
    Inbound.trajectoriesToEnv,
    ctx.rejected,
    ctx.tuning,
  );
  trajectoryChannel.connect(ctx.endpoints.trajectories);
  const trajectories = new Requester(trajectoryChannel);

  const taskFor = (assignment: TaskAssignmentMessage) =>
    host.task({ file: assignment.taskFile, id: assignment.taskId });
  // Eval episodes are few and are what people look at; collection pays for screenshots only when asked.
  const screenshotFor = (assignment: TaskAssignmentMessage): boolean =>
    recording &&
    (ctx.config.env.screenshot === true || (ctx.config.env.screenshot === 'eval' && assignment.greedy));
  const count = (key: string, by = 1) => {
    ctx.counters[key] = (ctx.counters[key] ?? 0) + by;
  };

  /** Sends until acknowledged: a successful trajectory must not be lost to a replay restart. */
  const storeTrajectory = async (trajectory: TrajectoryMessage): Promise<boolean> => {
    for (let attempt = 1; attempt <= ACK_ATTEMPTS && (attempt === 1 || running); attempt++) {
      const ack = await trajectories.request(
        trajectory,
        (m) => m.episodeId === trajectory.episodeId,
        ACK_TIMEOUT_MS,
      );
      if (ack !== null) return ack.message.kept;
      ctx.log.warn(`replay did not acknowledge ${trajectory.episodeId} (attempt ${attempt}); sending again`);
    }
    throw new Error(`replay never acknowledged trajectory ${trajectory.episodeId}`);
  };

  /**
   * A request that reached an inference worker as it was killed is lost with it: it is sent again
   * every ACT_RESEND_MS (to whichever worker is up) until act_timeout_ms; the first reply counts.
   */
  const askInference = async (
    request: object,
    matches: Parameters<typeof act.request>[1],
    frames: readonly Buffer[] = [],
  ) => {
    const deadline = Date.now() + ctx.config.env.act_timeout_ms;
    for (let attempt = 1; ; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0 || (attempt > 1 && !running)) return null;
      const reply = await act.request(request, matches, Math.min(ACT_RESEND_MS, left), frames);
      if (reply !== null) return reply;
      count('actResends');
    }
  };

  /** The env's page as the wire carries it (made once per page: trails read earlier pages again). */
  const wires = new WeakMap<Observation, WireObservation>();
  const wireOf = (observation: Observation): WireObservation => {
    let wire = wires.get(observation);
    if (wire === undefined) {
      wire = toWire(observation, viewport);
      wires.set(observation, wire);
    }
    return wire;
  };

  // collect.search_keep exploratory (src/search/exploratory.ts): the steps that go back from a
  // dead end, in the run's action format, and a linearised step as a trajectory holds it
  const webarenaFormat = ctx.config.env.action_format === 'webarena';
  const undoStep = wayBack(ctx.config.env.action_format);
  const exploredStep = (t: Taken): RolloutStep => ({
    taken: t,
    observation: t.observation.text,
    url: t.observation.url,
    reply: t.reply,
    action:
      t.actionText ?? describeAction(webarenaFormat ? parseWebArenaReply(t.reply) : parseTtiReply(t.reply)),
  });
  const warned = new Set<string>();
  const warnOnce = (key: string, message: string): void => {
    if (warned.has(key)) return;
    warned.add(key);
    ctx.log.warn(message);
  };

  type EpisodeContext = {
    intent: string;
    site: string;
    usage: { promptTokens: number; completionTokens: number };
  };

  /** The act request for `observation` after the episode's earlier steps (`taken`), and its frames. */
  const requestOf = (
    assignment: TaskAssignmentMessage,
    context: EpisodeContext,
    observation: Observation,
    taken: readonly Taken[],
    rollout: number,
  ) => {
    const step = taken.length;
    // A search's rollouts each have their own id, so a late reply to one never answers another.
    const actingAs = rollout === 0 ? assignment.episodeId : `${assignment.episodeId}~${rollout}`;
    const wire = wireOf(observation);
    const history = taken.map((t) => ttiActionText(t.reply));
    const frames: Buffer[] = [];
    const chatFields: Record<string, unknown> = {};
    if (chatPolicy) {
      // The newest screenshots, by step, for a chat policy's context (it keeps chat.max_images).
      const shots = [...taken.map((t) => t.observation), observation]
        .map((o, s) => ({ step: s, jpeg: o.screenshot }))
        .filter((s) => s.jpeg && s.step > step - ctx.config.chat.max_images);
      const screenshots = shots.map((s) => ({ step: s.step, frame: frames.push(s.jpeg!) - 1 }));
      Object.assign(chatFields, { site: context.site, replies: taken.map((t) => t.reply), screenshots });
    }
    const trail: TrailStep[] = chatPolicy
      ? []
      : taken.map((t, i) => {
          const w = wireOf(t.observation);
          return { url: w.url, action: actionSignature(history[i]!, w.nodes) };
        });
    const request = {
      ...chatFields,
      type: 'act_request' as const,
      // inference answers only the worker a request names, by that worker's key
      workerId: ctx.workerId,
      ...ctx.signature,
      episodeId: actingAs,
      step,
      horizon: assignment.horizon,
      intent: context.intent,
      observation: wire,
      history,
      ...(chatPolicy ? {} : { trail }),
      greedy: assignment.greedy,
      temperature: assignment.temperature,
      // a search's later rollouts draw apart from its first, which is the plain episode's
      seed: rollout === 0 ? mixSeeds(assignment.seed, step) : mixSeeds(assignment.seed, step, rollout),
      offers,
    };
    return { request, frames };
  };

  /**
   * The page's features for the policy (features.ts), encoded once per page: a search's progress
   * measure, a stop probe and the act request all read the page reached after `taken`.
   */
  let featured: { observation: Observation; steps: number; features: PolicyFeatures } | null = null;
  const featuresAt = (
    assignment: TaskAssignmentMessage,
    context: EpisodeContext,
    observation: Observation,
    taken: readonly Taken[],
  ): PolicyFeatures => {
    if (featured?.observation !== observation || featured.steps !== taken.length) {
      const { request } = requestOf(assignment, context, observation, taken, 0);
      featured = { observation, steps: taken.length, features: featuresOf(policyInputOf(request)) };
    }
    return featured.features;
  };

  /**
   * The policy's action on `observation` after the episode's earlier steps (`taken`): one act
   * request, sent again until an inference worker answers.
   */
  const decide = async (
    assignment: TaskAssignmentMessage,
    context: EpisodeContext,
    observation: Observation,
    taken: readonly Taken[],
    rollout = 0,
    failedAnswers: ReadonlySet<string> = new Set(),
    avoid: ReadonlySet<string> = new Set(),
  ): Promise<Decision> => {
    const { request, frames } = requestOf(assignment, context, observation, taken, rollout);
    const { episodeId: actingAs, step } = request;
    const nodes = request.observation.nodes;
    let features = featurizeHere ? featuresAt(assignment, context, observation, taken) : undefined;
    // answers a stop probe scored failures here, and the actions a search tried from this page
    // already, are not drawn while another action is left
    if (features && (failedAnswers.size > 0 || avoid.size > 0)) {
      const left = features.candidates.flatMap((c, i) =>
        (c.kind === 'answer' && failedAnswers.has(c.text)) || avoid.has(actionSignature(c.action, nodes))
          ? [i]
          : [],
      );
      features = { ...features, excluded: [...new Set([...features.excluded, ...left])] };
    }
    const reply = await askInference(
      features ? { ...request, features } : request,
      (m) => m.episodeId === actingAs && m.step === step,
      frames,
    );
    if (reply === null) {
      await env.abandon();
      throw new Error(`no action from inference within ${ctx.config.env.act_timeout_ms} ms`);
    }
    if (reply.message.usage) {
      context.usage.promptTokens += reply.message.usage.promptTokens;
      context.usage.completionTokens += reply.message.usage.completionTokens;
      count('promptTokens', reply.message.usage.promptTokens);
      count('completionTokens', reply.message.usage.completionTokens);
    }
    return {
      reply: reply.message.reply,
      policyVersion: reply.message.policyVersion,
      signature: actionSignature(ttiActionText(reply.message.reply), nodes),
      ...(reply.message.value === undefined ? {} : { value: reply.message.value }),
      ...(reply.message.logProb === undefined ? {} : { logProb: reply.message.logProb }),
    };
  };

  /**
   * Every answer the page offers, scored as if the episode stopped with it (collect.stop_probes,
   * src/search/stop-probes.ts): the action ending the episode with the shortest that succeeds (or
   * null) and the answers that failed; null where the task cannot be probed.
   */
  const probeCounts: StopProbeCounts = { probes: 0, lucky: 0, guessable: 0, unevidenced: 0 };
  const stopHere = async (
    assignment: TaskAssignmentMessage,
    context: EpisodeContext,
    observation: Observation,
    taken: readonly Taken[],
  ): Promise<{ decision: Decision | null; failed: ReadonlySet<string> } | null> => {
    if (env.stopProbe === null || (env.stopProbe === 'state' && !ctx.config.collect.state_probes))
      return null;
    const { request } = requestOf(assignment, context, observation, taken, 0);
    const features = featuresAt(assignment, context, observation, taken);
    const { found, failed } = await probeStops(
      env,
      candidatesWithEvidence(policyInputOf(request), features),
      probeCounts,
    );
    ctx.counters.stopProbes = probeCounts.probes;
    ctx.counters.stopProbesLucky = probeCounts.lucky;
    ctx.counters.stopProbesGuessable = probeCounts.guessable;
    ctx.counters.stopProbesUnevidenced = probeCounts.unevidenced;
    if (found === null) return { decision: null, failed };
    count('stopProbeHits');
    const decision = {
      reply: `Thought: stopping here with this answer was scored a success before it was taken.\nAction: ${found.action}`,
      // the answer is the search's, acting under the policy that chose the way here
      policyVersion: taken[taken.length - 1]?.policyVersion ?? 0,
    };
    return { decision, failed };
  };

  const runEpisode = async (assignment: TaskAssignmentMessage, requestId: number): Promise<void> => {
    const { task, label } = taskFor(assignment);
    const started = Date.now();
    ctx.log.debug(`episode ${assignment.episodeId} (task ${task.id}, ${assignment.split}): started`);
    const resetOptions = (episodeId: string) => ({
      horizon: assignment.horizon,
      minTry: assignment.minTry,
      episodeId,
      screenshot: chatPolicy || screenshotFor(assignment),
      labels: label,
      run: {
        iteration: assignment.iteration,
        split: assignment.split,
        mode: assignment.greedy ? ('eval' as const) : ('collect' as const),
        workerId: ctx.workerId,
        taskFile: assignment.taskFile,
      },
    });
    const start = async (episodeId: string): Promise<Observation> => {
      await host.beforeEpisode?.();
      const first = await env.reset(task, resetOptions(episodeId));
      // reset relaunches a Chromium that died: the record follows.
      recordOwnBrowsers();
      return first;
    };
    const usage = { promptTokens: 0, completionTokens: 0 };
    let observation: Observation | null = await start(assignment.episodeId);
    // A page may state its instruction only once its episode has started.
    const context = { intent: env.task?.intent ?? task.intent, site: task.sites[0] ?? 'general', usage };
    const step = async (action: Action | string, policyVersion: number) => {
      const result = await env.step(action, { policyVersion });
      count('steps');
      return result;
    };

    let outcome: {
      record: EpisodeRecord | null;
      taken: Taken[];
      envSteps: number;
      /** the first steps of `taken` that the record holds as one goto */
      revisited?: number;
      /** collect.search_keep exploratory: the whole search as one trajectory, kept instead of `taken` */
      explored?: Taken[];
      search?: SearchStats & { backSteps?: number };
    };
    const { collect } = ctx.config;
    // collection searches for a success to keep; eval may search at test time, choosing by what
    // the policy says of its own rollouts (src/search/branch-search.ts), never by a verdict
    const testTime = assignment.greedy && ctx.config.eval_search !== 'none';
    if ((collect.search === 'branch' && !assignment.greedy) || testTime) {
      const first = observation;
      let rollout = 0;
      // at test time the first rollout is the greedy episode and later ones sample; all at one
      // temperature, so their log-probabilities compare
      const sampling = { ...assignment, greedy: false, temperature: ctx.config.eval_search_temperature };
      const scored = { ...assignment, temperature: ctx.config.eval_search_temperature };
      const searched = await branchSearch({
        budget: testTime ? ctx.config.eval_search_budget : collect.search_budget,
        burst: collect.search_burst,
        horizon: assignment.horizon,
        rank:
          collect.search_rank === 'value'
            ? { by: 'value', temperature: collect.search_value_temperature }
            : collect.search_rank === 'progress'
              ? { by: 'progress', temperature: collect.search_progress_temperature }
              : { by: 'visits' },
        pick: testTime ? ctx.config.eval_search_pick : 'success',
        revisitByUrl: collect.search_by_url && offers.navigation !== false,
        random: new SeededRandom(mixSeeds(assignment.seed, 0x5ea5c4)).next,
        start: async (k) => {
          rollout = k;
          return k === 0 ? first : start(`${assignment.episodeId}~${k}`);
        },
        step,
        act: async (page, taken, avoid) => {
          if (testTime) return decide(rollout === 0 ? scored : sampling, context, page, taken, rollout);
          const probed = collect.stop_probes ? await stopHere(assignment, context, page, taken) : null;
          return (
            probed?.decision ??
            (await decide(assignment, context, page, taken, rollout, probed?.failed, avoid))
          );
        },
        ...(collect.search_rank === 'progress' && !testTime
          ? {
              progress: (page: Observation, taken: readonly Taken[]) =>
                taskProgress(featuresAt(assignment, context, page, taken)),
            }
          : {}),
        onRollout: (s) => {
          ctx.labels.search =
            `${s.rollouts} rollouts, ${s.cells} pages, depth ${s.deepest}` +
            (s.bestValue === null ? '' : `, best value ${s.bestValue.toFixed(2)}`) +
            (s.bestProgress === null ? '' : `, best progress ${s.bestProgress.toFixed(2)}`);
        },
      });
      delete ctx.labels.search;
      count('searchRollouts', searched.stats.rollouts);
      count('searchCells', searched.stats.cells);
      count('searchDiverged', searched.stats.diverged);
      count('searchByUrl', searched.stats.byUrl);
      // What the search left unfinished goes; the last finished rollout is what it reports.
      await env.abandon();
      outcome = { ...searched, envSteps: searched.stats.envSteps, search: searched.stats };
      if (searched.success) {
        // how often a success came after dead ends: what an exploratory trajectory could teach
        count('searchSuccesses');
        if (searched.rollouts.length > 1) count('searchSuccessesAfterDeadEnds');
      }
      if (collect.search_keep === 'exploratory' && searched.success && !testTime) {
        if (offers.navigation === false)
          warnOnce(
            'exploratory',
            'this suite offers no GoBack: searches keep their successes from the start',
          );
        else {
          let backSteps = 0;
          outcome.explored = exploratorySteps(searched.rollouts, (page, version, done, navigated) => {
            const back = undoStep(page, version, done, navigated);
            if (back !== null) backSteps += 1;
            return back;
          });
          if (backSteps > 0) count('exploratoryWithDeadEnds');
          count('exploratoryBackSteps', backSteps);
          outcome.search = { ...searched.stats, backSteps };
        }
      }
    } else {
      const taken: Taken[] = [];
      let record: EpisodeRecord | null = null;
      const probing = collect.stop_probes && !assignment.greedy;
      while (observation !== null) {
        const probed = probing ? await stopHere(assignment, context, observation, taken) : null;
        const decision =
          probed?.decision ?? (await decide(assignment, context, observation, taken, 0, probed?.failed));
        taken.push({ observation, ...decision });
        const result = await step(decision.reply, decision.policyVersion);
        observation = result.observation;
        if (result.done) record = result.record;
      }
      outcome = { record, taken, envSteps: taken.length };
    }

    const { record, taken } = outcome;
    const reward = record?.verdict.success ? 1 : 0;
    let kept = false;
    if (assignment.toReplay && record !== null) {
      const trajectory: TrajectoryMessage = {
        type: 'trajectory',
        // replay takes a trajectory only from the worker it names, by that worker's key
        workerId: ctx.workerId,
        ...ctx.signature,
        episodeId: assignment.episodeId,
        taskId: task.id,
        site: task.sites[0] ?? 'unknown',
        intent: context.intent,
        iteration: assignment.iteration,
        reward,
        ...(record.verdict.pageReward
          ? {
              rawReward: record.verdict.pageReward.raw,
              discountedReward: record.verdict.pageReward.discounted,
            }
          : {}),
        offers,
        answer: record.answer,
        horizon: Math.max(assignment.horizon, outcome.explored?.length ?? 0),
        steps: (
          outcome.explored?.map(exploredStep) ?? rolloutSteps(record, taken, outcome.revisited ?? 0)
        ).map((s) => {
          const wire = s.taken ? wireOf(s.taken.observation) : null;
          return {
            observation: s.observation,
            url: wire?.url ?? s.url,
            nodes: wire?.nodes ?? { ids: [], roles: [], names: [], depths: [], inViewport: [] },
            note: wire?.note ?? null,
            reply: s.reply,
            action: s.action,
            policyVersion: s.taken?.policyVersion ?? 0,
          };
        }),
      };
      kept = await storeTrajectory(trajectory);
    }
    count('episodes');
    if (reward > 0) count('successes');
    if (record !== null && record.verdict.status !== 'scored') count('unscored');
    const endReason = record?.endReason ?? (outcome.search ? 'search_budget' : 'unrecorded');
    const searched = outcome.search
      ? `; searched ${outcome.search.rollouts} rollouts, ${outcome.search.cells} pages, ${outcome.envSteps} env steps`
      : '';
    ctx.log.info(
      `episode ${assignment.episodeId} (task ${task.id}, ${assignment.split}): ${endReason} after ` +
        `${record?.steps.length ?? 0} steps, reward ${reward}${kept ? ', kept' : ''}` +
        `${record ? ` (${record.verdict.why})` : ''}${searched}`,
    );
    await resetChangedSites(host, task, health, ctx);
    await reportResult({
      type: 'episode_result',
      workerId: ctx.workerId,
      ...ctx.signature,
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
      durationMs: Date.now() - started,
      ...(chatPolicy ? { usage } : {}),
      ...(outcome.search ? { search: outcome.search } : {}),
    });
  };

  /** The supervisor counts the iteration's episodes from these; a lost one would stall it. */
  const reportResult = async (result: EpisodeResultMessage): Promise<void> => {
    for (let attempt = 1; attempt <= ACK_ATTEMPTS && (attempt === 1 || running); attempt++) {
      const ack = await tasks.request(
        result,
        (m) => m.type === 'result_ack' && m.episodeId === result.episodeId,
        ACK_TIMEOUT_MS,
      );
      if (ack !== null) return;
    }
    ctx.log.warn(`the supervisor did not acknowledge the result of ${result.episodeId}`);
  };

  /** Hands an episode back to the supervisor for another worker (this one's host is down). */
  const giveBack = async (episodeId: string, requestId: number, reason: string): Promise<void> => {
    for (let attempt = 1; attempt <= ACK_ATTEMPTS && running; attempt++) {
      const message = {
        type: 'episode_returned',
        workerId: ctx.workerId,
        ...ctx.signature,
        requestId,
        episodeId,
        reason,
      };
      const ack = await tasks.request(
        message,
        (m) => m.type === 'result_ack' && m.episodeId === episodeId,
        ACK_TIMEOUT_MS,
      );
      if (ack !== null) return;
    }
  };

  let running = true;
  let requestId = 0;
  await health.check();
  const loop = (async () => {
    while (running) {
      // A worker whose host is down takes no tasks: they go to the others until it answers again.
      if (!(await health.recheck(HOST_RECHECK_MS))) {
        await health.waitUntilHealthy(() => running);
        continue;
      }
      const id = requestId++;
      const reply = await tasks.request(
        { type: 'task_request', workerId: ctx.workerId, ...ctx.signature, requestId: id },
        (m) => m.type !== 'result_ack' && m.requestId === id,
        TASK_REQUEST_TIMEOUT_MS,
      );
      if (!running) return;
      if (reply === null) continue;
      if (reply.message.type === 'result_ack') continue;
      if (reply.message.type === 'no_task') {
        await sleep(reply.message.retryAfterMs);
        continue;
      }
      ctx.setBusy(true);
      // One bad episode (a page that hangs, a task that does not load) must not stop the worker. A
      // failure is often passing (a peer restarting), and the supervisor hands the episode to
      // someone else only once it is long overdue: it is tried again here first, under its own id.
      for (let attempt = 1; attempt <= EPISODE_ATTEMPTS && running; attempt++) {
        try {
          await runEpisode(reply.message, id);
          break;
        } catch (error) {
          count('errors');
          const why = (error as Error).message;
          if (!(await health.check())) {
            ctx.log.warn(
              `episode ${reply.message.episodeId} failed (${why}); the host is down: giving it back`,
            );
            await giveBack(reply.message.episodeId, id, `web host down: ${ctx.labels.host ?? why}`);
            count('givenBack');
            break;
          }
          const again = attempt < EPISODE_ATTEMPTS && running ? '; trying it again' : '';
          ctx.log.warn(`episode ${reply.message.episodeId} failed: ${why}${again}`);
          if (again) await sleep(EPISODE_RETRY_MS);
        }
      }
      ctx.setBusy(false);
    }
  })();

  return {
    onCommand(command) {
      if (command.command === 'act_endpoints') useActEndpoints(command.act);
    },
    injectFault(fault) {
      if (fault !== 'host-down') return;
      if (!host.outage) {
        ctx.log.warn(`host-down: the ${suite.name} suite's host cannot be taken down; left alone`);
        return;
      }
      void host.outage(HOST_OUTAGE_MS).catch((e: Error) => ctx.log.error(`host-down: ${e.message}`));
    },
    async stop(deadlineMs) {
      running = false;
      // The episode in flight finishes (or the deadline cuts it); then the browser and host go.
      await Promise.race([loop, sleep(Math.max(0, deadlineMs - 1000))]);
      tasks.close();
      act.close();
      trajectories.close();
      await env.close().catch(() => undefined);
      await host.close().catch(() => undefined);
    },
  };
};
