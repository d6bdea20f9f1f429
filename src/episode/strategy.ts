// What a collection or evaluation strategy plugs into the episode runner with (src/strategies):
// a decision before the policy's (stop probes), or a run of its own in place of the plain loop (a
// search). A strategy says which counters it keeps and which numbers it adds to the episode's
// result (`extras`, sent under its name), each in words.

import type { Config } from '../config/index.js';
import type { Action, BrowserEnv, EpisodeRecord, Observation, StepResult } from '../envs/index.js';
import type { PolicyFeatures, PolicyInput } from '../model/without-tfjs.js';
import type { ActionOffers, TaskAssignmentMessage } from '../protocol/index.js';
import type { Decision, Taken } from '../search/index.js';
import type { DecideOptions } from './acting.js';

/** What an episode came to: what its trajectory and its result are made from. */
export interface Outcome {
  /** the scored record of the rollout reported (null: none finished) */
  record: EpisodeRecord | null;
  /** that rollout's steps as the policy took them */
  taken: Taken[];
  /** what the episode cost in env steps: a search's replayed and acted steps all count */
  envSteps: number;
  /** the running strategy's numbers about the episode, by the names it declares in `extras` */
  extras?: Record<string, number | null>;
}

/** One episode as a strategy sees it. */
export interface Episode {
  readonly assignment: TaskAssignmentMessage;
  readonly config: Config;
  readonly env: BrowserEnv;
  readonly offers: ActionOffers;
  /** the worker's counters (shown in status and the live view) and labels */
  readonly counters: Record<string, number>;
  readonly labels: Record<string, string>;
  /** the first rollout's first page */
  readonly first: Observation;
  /** Rollout `k`'s first page: `first` for 0, else a freshly reset host under the rollout's own id. */
  start(k: number): Promise<Observation>;
  step(action: Action | string, policyVersion: number): Promise<StepResult>;
  /** The action on `page` after `taken`: a strategy's before the policy's, else the policy's. */
  act(page: Observation, taken: readonly Taken[], o?: DecideOptions): Promise<Decision>;
  /** What the trainable policy reads of `page` after `taken`, and its features. */
  policyInput(page: Observation, taken: readonly Taken[]): PolicyInput;
  features(page: Observation, taken: readonly Taken[]): PolicyFeatures;
  /**
   * The policy version a step the policy did not choose is recorded under (a stop probe's answer on
   * the first page): the episode's pinned version, else the newest this worker was served. Not 0:
   * a bounded policy lag would take such an episode for stale.
   */
  servedVersion(): number;
  count(key: string, by?: number): void;
  warnOnce(key: string, message: string): void;
}

/** A strategy's decision before the policy is asked (null: ask it), and the answers it must not draw. */
export interface Preempt {
  decision: Decision | null;
  failed: ReadonlySet<string>;
}

export interface Strategy {
  /** the name its counters are shown under */
  readonly name: string;
  /** the worker counters it keeps, each in the words a user reads it in */
  readonly metrics: Readonly<Record<string, string>>;
  /** the numbers it adds to an episode's result (Outcome.extras), each in words */
  readonly extras?: Readonly<Record<string, string>>;
  /** whether it takes part in an episode */
  takesPart(assignment: TaskAssignmentMessage): boolean;
  /** A decision before the policy's on `page` (null: the strategy has nothing to say here). */
  before?(episode: Episode, page: Observation, taken: readonly Taken[]): Promise<Preempt | null>;
  /** Runs the episode in place of the plain loop; the first strategy taking part that has one runs. */
  run?(episode: Episode): Promise<Outcome>;
}
