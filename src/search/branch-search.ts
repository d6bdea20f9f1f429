// Search while collecting (`collect.search: branch`, issue 23): one task, a budget of env steps,
// and the states found so far kept in a cell archive. The first rollout is the policy's ordinary
// episode, so a search that succeeds at once is TTI's episode. Each later rollout goes back to a
// cell (a reset, then the replay of the shortest known way there: src/envs/replay-prefix.ts) and
// lets the policy act for a short burst from it; every new page becomes a cell. The first success
// ends the search, and its rollout — replayed prefix and all — is a trajectory from the task's
// start, as filtered BC needs it. With `revisitByUrl` a cell whose way sent only safe requests is
// gone back to with one goto to its URL (checked against the cell), its way shown as first taken.
//
// At test time (`pick: likelihood | value`, `tti-run eval --search branch`) no verdict is read: the
// first rollout is the greedy episode, each later one samples from a page gone back to until the
// episode ends, and when the budget is spent the finished rollout the policy itself rates highest
// is the episode's answer (its verdict, computed by the env when it ended, is reported only then).
import {
  type Action,
  actionOnPage,
  describeAction,
  type EpisodeRecord,
  type Observation,
  replayStepOf,
  type StepResult,
} from '../envs/index.js';
import { type Cell, CellArchive, type CellRank, cellKey, type PathStep } from './cell-archive.js';
import type { Rollout } from './exploratory.js';

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
  /** the action as the env describes it, for a step the env's record does not hold (a way back by URL) */
  actionText?: string;
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
 * the highest mean log-probability of its actions ('likelihood') or critic value on its last page
 * acted on ('value'). Test-time picks never read a verdict.
 */
export type SearchPick = 'success' | 'likelihood' | 'value';

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
  /** the highest task progress on any page reached (null: not measured) */
  bestProgress: number | null;
  /** rollouts that ended (done) within the budget: a test-time search chooses among them */
  finished: number;
  /** rollouts that went back to their cell by its URL instead of a replay (`revisitByUrl`) */
  byUrl: number;
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
  /**
   * Collection: go back to a cell whose way there sent no request that may change a site with
   * one goto to its URL on the reset host, instead of replaying the way (checked: the page must
   * be the cell's, else the cell is replayed from then on). Only for tasks that offer goto.
   */
  revisitByUrl?: boolean;
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
  /** How far the task looks done on `observation` reached after `taken` (rank 'progress' reads it). */
  progress?(observation: Observation, taken: readonly Taken[]): number;
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
  /**
   * every rollout that got to act, in the order taken, the returned one last (collection: what
   * `exploratorySteps` linearises; diverged ways back are left out)
   */
  rollouts: Rollout[];
  /**
   * how many of `taken`'s first steps the record holds as a single goto (the rollout went back
   * by URL; 0: the record has a step for each)
   */
  revisited: number;
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

/**
 * The pages of a cell's way when the cell may be one goto away on a reset host (every step sent
 * only safe requests, and a goto there has not failed); null when it must be replayed.
 */
function wayByUrl(cell: Cell): { step: PathStep; page: Observation }[] | null {
  if (cell.byUrl === false || cell.path.length < 2) return null;
  const way: { step: PathStep; page: Observation }[] = [];
  for (const step of cell.path) {
    if (step.safe !== true || step.observation === undefined) return null;
    way.push({ step, page: step.observation });
  }
  return way;
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

/**
 * A rollout's steps from its start: a rollout that went back by URL holds one goto in the env's
 * record for the first `revisited` steps of `taken`, which come from `taken` as first taken; the
 * rest are the record's, each with the step of `taken` it was.
 */
export function rolloutSteps(
  record: EpisodeRecord,
  taken: readonly Taken[],
  revisited: number,
): RolloutStep[] {
  const way = taken.slice(0, revisited).map((t) => ({
    taken: t,
    observation: t.observation.text,
    url: t.observation.url,
    reply: t.reply,
    action: t.actionText ?? t.reply,
  }));
  const recorded = (revisited > 0 ? record.steps.slice(1) : record.steps).map((s, k) => {
    const t = taken[revisited + k];
    return {
      ...(t === undefined ? {} : { taken: t }),
      observation: s.observation,
      url: s.url,
      reply: s.reply ?? t?.reply ?? s.actionText,
      action: s.actionText,
    };
  });
  return [...way, ...recorded];
}

/** A finished rollout's score for a test-time pick (higher is better). */
function scoreOf(pick: 'likelihood' | 'value', taken: readonly Taken[]): number {
  if (pick === 'value') return taken.at(-1)?.value ?? Number.NEGATIVE_INFINITY;
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
    bestProgress: null,
    finished: 0,
    byUrl: 0,
  };
  let last: { record: EpisodeRecord | null; taken: Taken[]; revisited: number } = {
    record: null,
    taken: [],
    revisited: 0,
  };
  let best: { record: EpisodeRecord | null; taken: Taken[]; score: number } | null = null;
  const rollouts: Rollout[] = [];
  const left = () => o.budget - stats.envSteps;

  while (left() > 0) {
    const k = stats.rollouts++;
    let observation = await o.start(k);
    const taken: Taken[] = [];
    const path: PathStep[] = [];
    // steps of `taken` the env's record holds as one goto (a way back by URL)
    let revisited = 0;
    let acting = o.horizon;
    // a burst goes back to a cell and starts with an action no earlier burst from it started with
    let from: Cell | null = null;
    if (k === 0) archive.reach(observation, path, o.progress?.(observation, taken));
    else {
      const cell = archive.choose(o.horizon - 1, o.random, o.rank);
      if (cell === null || cell.path.length >= left()) break;
      from = cell;
      let arrived = false;
      const way = o.revisitByUrl && pick === 'success' ? wayByUrl(cell) : null;
      if (way !== null) {
        const result = await o.step(
          { type: 'goto', url: cell.url },
          cell.path[cell.path.length - 1]?.policyVersion ?? 0,
        );
        stats.envSteps++;
        if (result.observation !== null && cellKey(result.observation) === cell.key) {
          // the policy is shown the way as it was first taken; the record holds one goto for it
          for (const { step, page } of way)
            taken.push({
              ...takenOf(step, page, step.reply),
              actionText: describeAction(step.replay.action),
            });
          path.push(...cell.path);
          observation = result.observation;
          revisited = cell.path.length;
          stats.byUrl++;
          arrived = true;
        } else {
          // the page keeps state its URL does not say (a form half filled, a script's): replay
          cell.byUrl = false;
          stats.diverged++;
          if (cell.path.length >= left()) break;
          observation = await o.start(k);
        }
      }
      if (!arrived) {
        arrived = true;
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
      }
      // collection acts a burst and goes back; a test-time rollout runs to the episode's end, so
      // it can be chosen
      acting = pick === 'success' ? Math.min(o.burst, o.horizon - path.length) : o.horizon - path.length;
    }
    let ended: Rollout | null = null;
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
        ...(o.revisitByUrl ? { observation, safe: result.sentUnsafeRequest === false } : {}),
      });
      if (result.done || result.observation === null) {
        ended = { taken, end: null };
        rollouts.push(ended);
        last = { record: result.record, taken, revisited };
        if (result.done && result.record !== null) stats.finished++;
        if (pick === 'success') {
          if (result.record?.verdict.success === true) return finish(true);
        } else if (result.record !== null) {
          // the verdict is not looked at here: only what the policy said of its own actions
          const score = scoreOf(pick, taken);
          if (best === null || score > best.score) best = { record: result.record, taken, score };
        }
        break;
      }
      observation = result.observation;
      archive.reach(observation, path, o.progress?.(observation, taken));
    }
    if (ended === null) rollouts.push({ taken, end: observation });
    stats.cells = archive.size;
    stats.deepest = archive.deepest();
    stats.bestValue = archive.bestValue();
    stats.bestProgress = archive.bestProgress();
    o.onRollout?.({ ...stats });
  }
  if (pick !== 'success') {
    last = { record: best?.record ?? null, taken: best?.taken ?? [], revisited: 0 };
    return finish(best?.record?.verdict.success === true);
  }
  return finish(false);

  function finish(success: boolean): SearchOutcome {
    stats.cells = archive.size;
    stats.deepest = archive.deepest();
    stats.bestValue = archive.bestValue();
    stats.bestProgress = archive.bestProgress();
    // the rollout returned goes last: at test time the one picked
    const others = rollouts.filter((r) => r.taken !== last.taken);
    const returned = rollouts.find((r) => r.taken === last.taken);
    return {
      success,
      record: last.record,
      taken: last.taken,
      revisited: last.revisited,
      rollouts: returned === undefined ? others : [...others, returned],
      stats,
    };
  }
}
