// Search while collecting (`collect.search: branch`, issue 23): one task, a budget of env steps,
// and the states found so far kept in a cell archive. The first rollout is the policy's ordinary
// episode, so a search that succeeds at once is TTI's episode. Each later rollout goes back to a
// cell (a reset, then the replay of the shortest known way there: src/envs/replay-prefix.ts) and
// lets the policy act for a short burst from it; every new page becomes a cell. The first success
// ends the search, and its rollout — replayed prefix and all — is a trajectory from the task's
// start, as filtered BC needs it.
//
// At test time (`pick: likelihood`, `tti-run eval --search branch`) no verdict is read: the
// first rollout is the greedy episode, each later one samples from a page gone back to until the
// episode ends, and when the budget is spent the finished rollout the policy itself rates highest
// is the episode's answer (its verdict, computed by the env when it ended, is reported only then).
import {
  type Action,
  actionOnPage,
  type EpisodeRecord,
  type Observation,
  replayStepOf,
  type StepResult,
} from '../envs/index.js';
import { type Cell, CellArchive, type CellRank, cellKey, type PathStep } from './cell-archive.js';

/** One step of a rollout as the policy saw it. */
export interface Taken {
  observation: Observation;
  /** the reply that was acted on, with the element ids of this page */
  reply: string;
  policyVersion: number;
  /** the log-probability of the action under the policy (absent: the policy did not say) */
  logProb?: number;
  /** the critic's estimate on this page (absent: no critic) */
  value?: number;
}

export interface Decision {
  reply: string;
  policyVersion: number;
  /** the action as a later load of the page knows it (role and name, not id): what `avoid` names */
  signature?: string;
  /** the critic's estimate of the episode's reward from the page acted on (absent: no critic) */
  value?: number;
  /** the log-probability of the chosen action under the distribution it was drawn from */
  logProb?: number;
}

/**
 * What ends a search: 'success' (collection: the first rollout the env scores a success; the rest
 * of the budget is not spent), or, at test time, the whole budget and then the finished rollout with
 * the highest mean log-probability of its actions ('likelihood'). Test-time picks never read a
 * verdict. (A pick by the critic's value lost 7 of 9 decided tasks to it: experiments/test-time-search.)
 */
export type SearchPick = 'success' | 'likelihood';

export interface SearchStats {
  rollouts: number;
  /** distinct pages reached */
  cells: number;
  /** env steps taken, replayed ones included: what the search cost */
  envSteps: number;
  /** ways back that did not reach their cell's page (a replay's element gone, a goto's page not the cell's) */
  diverged: number;
  /** the longest way to a cell, in steps */
  deepest: number;
  /** the critic's highest estimate on any page reached (null: no critic answered) */
  bestValue: number | null;
  /** rollouts that ended (done) within the budget: a test-time search chooses among them */
  finished: number;
}

export interface BranchSearchOptions {
  /** env steps for the whole search, replayed and acted */
  budget: number;
  /** steps the policy acts from a chosen cell before the search goes back */
  burst: number;
  /** the episode's horizon: a cell is explored from only while steps are left */
  horizon: number;
  /** how cells are drawn (default: by visits alone) */
  rank?: CellRank;
  /** what ends the search and which rollout it returns (default 'success': collection) */
  pick?: SearchPick;
  random: () => number;
  /** Starts rollout `k` on a freshly reset host; returns its first page. */
  start(k: number): Promise<Observation>;
  step(action: Action | string, policyVersion: number): Promise<StepResult>;
  /**
   * The policy's action on `observation`, after the rollout's earlier steps; not one of `avoid`
   * (signatures) while another action is left.
   */
  act(observation: Observation, taken: readonly Taken[], avoid?: ReadonlySet<string>): Promise<Decision>;
  /** Called after each rollout (the live view's counters). */
  onRollout?(stats: SearchStats): void;
}

export interface SearchOutcome {
  success: boolean;
  /**
   * collection: the successful rollout's record, else the last one that finished; test time: the
   * finished rollout picked (null: none finished)
   */
  record: EpisodeRecord | null;
  /** that rollout's steps */
  taken: Taken[];
  stats: SearchStats;
}

const elementIdOf = (action: Action): string | undefined =>
  'elementId' in action ? action.elementId : undefined;

/** A recorded reply with its element's id on the page it is replayed on. */
export function replyOnPage(reply: string, recorded: Action, now: Action): string {
  const from = elementIdOf(recorded);
  const to = elementIdOf(now);
  if (from === undefined || to === undefined || from === to) return reply;
  const at = Math.max(0, reply.lastIndexOf('Action:'));
  return reply.slice(0, at) + reply.slice(at).replace(`[${from}]`, `[${to}]`);
}

/** A step of a way back as the policy is shown it again. */
function takenOf(step: PathStep, observation: Observation, reply: string): Taken {
  return {
    observation,
    reply,
    policyVersion: step.policyVersion,
    ...(step.logProb === undefined ? {} : { logProb: step.logProb }),
  };
}

/** One step of a finished rollout as a trajectory holds it. */
export interface RolloutStep {
  /** the page as the policy saw it (absent: the step is the record's alone) */
  taken?: Taken;
  /** the observation's text, its URL, the reply and the action as the env describes it */
  observation: string;
  url: string;
  reply: string;
  action: string;
}

/** A rollout's steps from its start: the record's, each with the step of `taken` it was. */
export function rolloutSteps(record: EpisodeRecord, taken: readonly Taken[]): RolloutStep[] {
  return record.steps.map((s, k) => {
    const t = taken[k];
    return {
      ...(t === undefined ? {} : { taken: t }),
      observation: s.observation,
      url: s.url,
      reply: s.reply ?? t?.reply ?? s.actionText,
      action: s.actionText,
    };
  });
}

/** A finished rollout's score for a test-time pick: the mean log-probability of its actions. */
function likelihoodOf(taken: readonly Taken[]): number {
  const logProbs = taken.map((t) => t.logProb ?? Number.NEGATIVE_INFINITY);
  return logProbs.reduce((a, b) => a + b, 0) / Math.max(1, logProbs.length);
}

export async function branchSearch(o: BranchSearchOptions): Promise<SearchOutcome> {
  const pick = o.pick ?? 'success';
  const archive = new CellArchive();
  const stats: SearchStats = {
    rollouts: 0,
    cells: 0,
    envSteps: 0,
    diverged: 0,
    deepest: 0,
    bestValue: null,
    finished: 0,
  };
  let last: { record: EpisodeRecord | null; taken: Taken[] } = { record: null, taken: [] };
  let best: { record: EpisodeRecord | null; taken: Taken[]; score: number } | null = null;
  const left = () => o.budget - stats.envSteps;

  while (left() > 0) {
    const k = stats.rollouts++;
    let observation = await o.start(k);
    const taken: Taken[] = [];
    const path: PathStep[] = [];
    let acting = o.horizon;
    // a burst goes back to a cell and starts with an action no earlier burst from it started with
    let from: Cell | null = null;
    if (k === 0) archive.reach(observation, path);
    else {
      const cell = archive.choose(o.horizon - 1, o.random, o.rank);
      if (cell === null || cell.path.length >= left()) break;
      from = cell;
      let arrived = true;
      for (const recorded of cell.path) {
        const action = actionOnPage(recorded.replay, observation.nodes);
        if (action === null) {
          arrived = false;
          break;
        }
        taken.push(
          takenOf(recorded, observation, replyOnPage(recorded.reply, recorded.replay.action, action)),
        );
        const result = await o.step(action, recorded.policyVersion);
        stats.envSteps++;
        path.push(recorded);
        if (result.observation === null) {
          arrived = false;
          break;
        }
        observation = result.observation;
      }
      if (!arrived || cellKey(observation) !== cell.key) {
        stats.diverged++;
        if (!arrived) continue;
      }
      // collection acts a burst and goes back; a test-time rollout runs to the episode's end, so
      // it can be chosen
      acting = pick === 'success' ? Math.min(o.burst, o.horizon - path.length) : o.horizon - path.length;
    }
    for (let a = 0; a < acting && left() > 0; a++) {
      const avoid = a === 0 && pick === 'success' ? from?.tried : undefined;
      const decision = await o.act(observation, taken, avoid);
      if (avoid !== undefined && decision.signature !== undefined) avoid.add(decision.signature);
      if (decision.value !== undefined) archive.rate(observation, decision.value);
      taken.push({
        observation,
        reply: decision.reply,
        policyVersion: decision.policyVersion,
        ...(decision.logProb === undefined ? {} : { logProb: decision.logProb }),
        ...(decision.value === undefined ? {} : { value: decision.value }),
      });
      const result = await o.step(decision.reply, decision.policyVersion);
      stats.envSteps++;
      path.push({
        replay: replayStepOf(result.action, observation.nodes),
        reply: decision.reply,
        policyVersion: decision.policyVersion,
        ...(decision.logProb === undefined ? {} : { logProb: decision.logProb }),
      });
      if (result.done || result.observation === null) {
        last = { record: result.record, taken };
        if (result.done && result.record !== null) stats.finished++;
        if (pick === 'success') {
          if (result.record?.verdict.success === true) return finish(true);
        } else if (result.record !== null) {
          // the verdict is not looked at here: only what the policy said of its own actions
          const score = likelihoodOf(taken);
          if (best === null || score > best.score) best = { record: result.record, taken, score };
        }
        break;
      }
      observation = result.observation;
      archive.reach(observation, path);
    }
    stats.cells = archive.size;
    stats.deepest = archive.deepest();
    stats.bestValue = archive.bestValue();
    o.onRollout?.({ ...stats });
  }
  if (pick !== 'success') {
    last = { record: best?.record ?? null, taken: best?.taken ?? [] };
    return finish(best?.record?.verdict.success === true);
  }
  return finish(false);

  function finish(success: boolean): SearchOutcome {
    stats.cells = archive.size;
    stats.deepest = archive.deepest();
    stats.bestValue = archive.bestValue();
    return { success, record: last.record, taken: last.taken, stats };
  }
}
