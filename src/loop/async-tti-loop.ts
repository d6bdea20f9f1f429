// TTI's loop with collection that never waits for the learner (rollout.max_policy_lag = L ≥ 1),
// read top to bottom. The iterations are TTI's (tti-loop.ts): the same draws, horizons, temperatures,
// episode ids and seeds, one learner pass and one metrics row each. What changes is when they run:
//
//   before the first iteration: draw and queue iterations 1 … 1+L
//   for each iteration k:
//     1. record:     write the rows of the iterations before whose evals are done (in order), and
//                    wait for an eval only when the learner would otherwise drop its checkpoint;
//     2. batch:      wait for iteration k's episodes (k+1 … k+L are running meanwhile); an episode
//                    sampled more than L versions behind the policy the learner improves on is
//                    stale: counted, and left out of the batch;
//     3. learn:      train iteration k on replay's trajectories within the bound (replay leaves
//                    out, and counts, what an older policy sampled), publish version k; the queued
//                    episodes keep running;
//     4. draw ahead: queue iteration k+1+L, so no episode is sampled by a policy more than L
//                    versions behind the one that trains on it (AReaL's staleness cap);
//     5. eval:       on eval_every's cadence, the fixed subset, greedily, at the eval horizon, pinned
//                    to the version just published: inference holds that version for the eval's
//                    requests (a snapshot) while collection moves on to newer ones, so neither
//                    collection nor the learner waits for it; its row is written when it ends.
//
// L = 0 would be the synchronous loop with the eval moved beside collection; the synchronous loop
// itself (tti-loop.ts) is what `max_policy_lag: 0` runs, exactly as before.
import { horizonAt } from '../curriculum/index.js';
import type { EpisodeOutcome } from './episode.js';
import {
  addCollection,
  addEval,
  type Collected,
  collectText,
  drawTasks,
  episodeSpec,
  iterationLine,
  loopStart,
  metricsRow,
  STOPPED,
  scheduleOf,
  trainAndServe,
} from './iteration.js';
import type { LearnerReport } from './learner.js';
import type { LoopState } from './loop-state.js';
import { type LagSummary, lagOf, minPolicyVersion, splitByLag } from './policy-lag.js';
import type { StreamingCollector } from './streaming-collector.js';
import type { LoopDeps } from './tti-loop.js';

/** The lag as outcomes arrive (for status and the live view). */
export interface LiveLag {
  /** rollout.max_policy_lag */
  bound: number;
  /** the latest outcome's, against the version published when it arrived */
  last: number;
  /** the most seen over this run */
  max: number;
  /** episodes left out of their batch as stale, over this run */
  stale: number;
  /** kept trajectories past the bound that the learner's latest sample of replay left out */
  leftOut: number;
}

export interface AsyncLoopDeps extends Omit<LoopDeps, 'collector'> {
  collector: StreamingCollector;
  onLag?(lag: LiveLag): void;
}

/** An iteration trained, waiting for its eval before its row is written. */
interface Trained {
  iteration: number;
  horizon: number;
  collected: Collected;
  lag: LagSummary;
  trained: LearnerReport | null;
  collectMs: number;
  started: number;
  requeued: number;
  /** the run's state right after this iteration trained: what its row reads and its checkpoint saves */
  state: LoopState;
  evaluated: Promise<EpisodeOutcome[]> | null;
  /** the eval's outcomes once it has ended */
  evalDone: EpisodeOutcome[] | null;
}

export async function runAsyncTtiLoop(
  deps: AsyncLoopDeps,
  initial: LoopState,
): Promise<'completed' | 'stopped'> {
  const { config, log, collector, learner } = deps;
  const bound = config.rollout.max_policy_lag;
  const { state, random, evalTasks, untilStopped } = loopStart(deps, initial);

  const live: LiveLag = { bound, last: 0, max: 0, stale: 0, leftOut: 0 };
  collector.onOutcome((outcome) => {
    live.last = lagOf(outcome, state.policyVersion);
    live.max = Math.max(live.max, live.last);
    deps.onLag?.({ ...live });
  });

  // Iterations drawn and queued, not yet trained.
  const queued = new Map<number, { outcomes: Promise<EpisodeOutcome[]>; randomState: number }>();
  let nextDraw = state.iteration + 1;
  const drawThrough = (last: number) => {
    for (; nextDraw <= Math.min(last, config.iterations); nextDraw++) {
      const k = nextDraw;
      deps.event('collect', collectText(config, k, horizonAt(scheduleOf(config), k)));
      const tasks = drawTasks(config, deps.trainTasks, random);
      const outcomes = collector.submit({
        phase: 'collect',
        iteration: k,
        policyVersion: state.policyVersion,
        episodes: tasks.map((t, i) => episodeSpec(config, deps.runId, t, k, 'collect', i)),
      });
      queued.set(k, { outcomes, randomState: random.state });
    }
  };

  // Writes an iteration's row and checkpoint from its state as it trained, with its eval's counts.
  const record = async (t: Trained, evaluated: EpisodeOutcome[]): Promise<void> => {
    const evalRow = t.evaluated === null ? null : addEval(config, t.state, evaluated, deps.labels);
    // The eval's episodes count in the run's totals from here on, in the rows still to come too.
    if (t.evaluated !== null)
      for (const later of [state, ...pending.map((p) => p.state)]) {
        later.totals.episodes += evaluated.length;
        later.totals.successes += evaluated.filter((r) => r.reward > 0).length;
      }
    const row = metricsRow(config, t.state, {
      iteration: t.iteration,
      horizon: t.horizon,
      collected: t.collected,
      evalRow,
      evaluated,
      trained: t.trained,
      collectMs: t.collectMs,
      wallMs: Date.now() - t.started,
      restarts: await deps.restarts(),
      requeued: t.requeued,
    });
    row.lag = t.lag;
    deps.appendMetrics(row);
    deps.saveState(t.state);
    state.iteration = t.iteration;
    state.randomState = t.state.randomState;
    log.info(`${iterationLine(row, t.collected)}, policy lag ≤ ${t.lag.max} (${t.lag.stale} stale)`);
    deps.event('iteration', `iteration ${t.iteration} done, policy lag ≤ ${t.lag.max}`);
  };

  /** Trained iterations whose rows are not written yet, oldest first. */
  const pending: Trained[] = [];
  /** Writes the rows of the oldest pending iterations: those whose eval is done, and any up to `through`. */
  const recordThrough = async (through: number): Promise<'stopped' | undefined> => {
    while (pending.length > 0) {
      const t = pending[0]!;
      let evaluated = t.evalDone;
      if (t.evaluated !== null && evaluated === null) {
        if (t.iteration > through) return undefined;
        const ended = await untilStopped(t.evaluated);
        if (ended === STOPPED) return 'stopped';
        evaluated = ended;
      }
      pending.shift();
      await record(t, evaluated ?? []);
    }
    return undefined;
  };

  drawThrough(state.iteration + 1 + bound);
  let lastBatchAt = Date.now();
  for (let iteration = state.iteration + 1; iteration <= config.iterations; iteration++) {
    const started = Date.now();
    const requeuedBefore = collector.requeued;
    const horizon = horizonAt(scheduleOf(config), iteration);
    deps.onPhase('collect', iteration, horizon);

    // 1. the rows of the iterations before whose evals are done; training this one drops the
    // checkpoint of version iteration − keep_checkpoints, which an eval of it may still need
    // (an inference worker that restarts mid-eval loads the version it pins from disk)
    if ((await recordThrough(iteration - config.model.keep_checkpoints)) === 'stopped') return 'stopped';
    if (config.budget_env_steps !== null && state.totals.envSteps >= config.budget_env_steps) {
      log.info(`env-step budget reached (${state.totals.envSteps} ≥ ${config.budget_env_steps})`);
      break;
    }

    // 2. this iteration's batch, within the lag bound
    state.horizon = horizon;
    const draw = queued.get(iteration)!;
    const outcomes = await untilStopped(draw.outcomes);
    if (outcomes === STOPPED) return 'stopped';
    queued.delete(iteration);
    const collectMs = Date.now() - lastBatchAt;
    lastBatchAt = Date.now();
    const { fresh, stale, lag } = splitByLag(outcomes, state.policyVersion, bound);
    live.stale += stale.length;
    if (stale.length > 0)
      log.warn(
        `iteration ${iteration}: ${stale.length} episode(s) more than ${bound} versions behind, left out`,
      );
    const collected = addCollection(state, fresh);
    // Stale episodes ran and replay saw them: their env steps count against the budget.
    state.totals.envSteps += stale.reduce((n, r) => n + r.steps, 0);
    state.totals.seen += stale.length;

    // 3. learn and publish; collection goes on under whichever version inference serves
    deps.onPhase('train', iteration, horizon);
    const trained = await trainAndServe(
      learner,
      collector,
      state,
      iteration,
      untilStopped,
      minPolicyVersion(state.policyVersion, bound),
    );
    if (trained === STOPPED) return 'stopped';
    if (trained?.stale !== undefined) {
      lag.leftOut = trained.stale;
      live.leftOut = trained.stale;
      deps.onLag?.({ ...live });
    }

    // 4. draw ahead, up to the lag bound
    drawThrough(iteration + 1 + bound);

    // 5. eval beside collection, pinned to the version just published
    let evaluated: Promise<EpisodeOutcome[]> | null = null;
    if (iteration % config.eval_every === 0 || iteration === config.iterations) {
      const version = state.policyVersion;
      deps.event('eval', `iteration ${iteration}: eval on ${evalTasks.length} test tasks under v${version}`);
      evaluated = collector.submit({
        phase: 'eval',
        iteration,
        policyVersion: version,
        episodes: evalTasks.map((t, i) => ({
          ...episodeSpec(config, deps.runId, t, iteration, 'eval', i),
          policyVersion: version,
        })),
      });
    }
    deps.onPhase('collect', iteration, horizon);
    const t: Trained = {
      iteration,
      horizon,
      collected,
      lag,
      trained,
      collectMs,
      started,
      requeued: collector.requeued - requeuedBefore,
      state: { ...structuredClone(state), iteration, horizon, randomState: draw.randomState },
      evaluated,
      evalDone: null,
    };
    evaluated?.then(
      (outcomes) => {
        t.evalDone = outcomes;
      },
      () => undefined,
    );
    pending.push(t);
  }
  if ((await recordThrough(Number.POSITIVE_INFINITY)) === 'stopped') return 'stopped';
  deps.onPhase('done', state.iteration, state.horizon);
  return 'completed';
}
