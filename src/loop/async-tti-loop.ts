// TTI's loop with collection that never waits for the learner (rollout.max_policy_lag = L ≥ 1),
// read top to bottom. The iterations are TTI's (tti-loop.ts): the same draws, horizons, temperatures,
// episode ids and seeds, one learner pass and one metrics row each. What changes is when they run:
//
//   before the first iteration: draw and queue iterations 1 … 1+L
//   for each iteration k:
//     1. record k−1: wait for its eval (which ran beside collection), write its row, checkpoint;
//     2. batch:      wait for iteration k's episodes (k+1 … k+L are running meanwhile); an episode
//                    sampled more than L versions behind the policy the learner improves on is
//                    stale: counted, and left out of the batch;
//     3. learn:      train iteration k on replay's trajectories within the bound (replay leaves
//                    out, and counts, what an older policy sampled), publish version k; the queued
//                    episodes keep running;
//     4. draw ahead: queue iteration k+1+L, so no episode is sampled by a policy more than L
//                    versions behind the one that trains on it (AReaL's staleness cap);
//     5. eval:       on eval_every's cadence, the fixed subset, greedily, at the eval horizon, under
//                    the version just published, on the eval's share of the env workers; the
//                    learner publishes nothing newer until it is done (step 1), so the eval is of
//                    one named version while collection goes on.
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
  requeuedBefore: number;
  /** the task stream's state right after this iteration's draw: where a resume draws on from */
  randomState: number;
  evaluated: Promise<EpisodeOutcome[]> | null;
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

  // Writes an iteration's row and checkpoint; true when the env-step budget is spent.
  const record = async (t: Trained, evaluated: EpisodeOutcome[]): Promise<boolean> => {
    const evalRow = t.evaluated === null ? null : addEval(config, state, evaluated, deps.labels);
    const row = metricsRow(config, state, {
      iteration: t.iteration,
      horizon: t.horizon,
      collected: t.collected,
      evalRow,
      evaluated,
      trained: t.trained,
      collectMs: t.collectMs,
      wallMs: Date.now() - t.started,
      restarts: await deps.restarts(),
      requeued: collector.requeued - t.requeuedBefore,
    });
    row.lag = t.lag;
    deps.appendMetrics(row);
    state.iteration = t.iteration;
    state.horizon = t.horizon;
    state.randomState = t.randomState;
    deps.saveState(state);
    log.info(`${iterationLine(row, t.collected)}, policy lag ≤ ${t.lag.max} (${t.lag.stale} stale)`);
    deps.event('iteration', `iteration ${t.iteration} done, policy lag ≤ ${t.lag.max}`);
    const spent = config.budget_env_steps !== null && state.totals.envSteps >= config.budget_env_steps;
    if (spent) log.info(`env-step budget reached (${state.totals.envSteps} ≥ ${config.budget_env_steps})`);
    return spent;
  };

  drawThrough(state.iteration + 1 + bound);
  let pending: Trained | null = null;
  let lastBatchAt = Date.now();
  for (let iteration = state.iteration + 1; iteration <= config.iterations; iteration++) {
    const started = Date.now();
    const requeuedBefore = collector.requeued;
    const horizon = horizonAt(scheduleOf(config), iteration);
    deps.onPhase('collect', iteration, horizon);

    // 1. record the iteration before, once its eval is done
    if (pending !== null) {
      const evaluated: EpisodeOutcome[] | typeof STOPPED = await untilStopped(
        pending.evaluated ?? Promise.resolve([]),
      );
      if (evaluated === STOPPED) return 'stopped';
      const spent = await record(pending, evaluated);
      pending = null;
      if (spent) break;
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

    // 5. eval beside collection, under the version just published
    let evaluated: Promise<EpisodeOutcome[]> | null = null;
    if (iteration % config.eval_every === 0 || iteration === config.iterations) {
      deps.event(
        'eval',
        `iteration ${iteration}: eval on ${evalTasks.length} test tasks under v${state.policyVersion}`,
      );
      evaluated = collector.submit({
        phase: 'eval',
        iteration,
        policyVersion: state.policyVersion,
        episodes: evalTasks.map((t, i) => episodeSpec(config, deps.runId, t, iteration, 'eval', i)),
      });
    }
    deps.onPhase('collect', iteration, horizon);
    pending = {
      iteration,
      horizon,
      collected,
      lag,
      trained,
      collectMs,
      started,
      requeuedBefore,
      randomState: draw.randomState,
      evaluated,
    };
  }
  if (pending !== null) {
    const evaluated: EpisodeOutcome[] | typeof STOPPED = await untilStopped(
      pending.evaluated ?? Promise.resolve([]),
    );
    if (evaluated === STOPPED) return 'stopped';
    await record(pending, evaluated);
  }
  deps.onPhase('done', state.iteration, state.horizon);
  return 'completed';
}
