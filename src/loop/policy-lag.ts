// Policy lag: how many versions the policy that sampled an episode trails the one the learner
// improves on when it trains on it. TTI's synchronous loop has lag 0 by construction; the
// asynchronous loop bounds it by `rollout.max_policy_lag` (AReaL's max_head_offpolicyness).
import type { EpisodeOutcome } from './episode.js';

/** The lag of an outcome against `policyVersion`: by its oldest version (0 when it took no action). */
export function lagOf(outcome: Pick<EpisodeOutcome, 'policyVersions'>, policyVersion: number): number {
  if (outcome.policyVersions.length === 0) return 0;
  return Math.max(0, policyVersion - Math.min(...outcome.policyVersions));
}

/** What a metrics row says of its batch's lag. */
export interface LagSummary {
  /** rollout.max_policy_lag */
  bound: number;
  max: number;
  mean: number;
  /** episodes older than the bound, left out of the batch */
  stale: number;
  /** kept trajectories older than the bound that the learner's sample of replay left out */
  leftOut?: number;
}

/** The oldest policy version the learner trains on when it improves on `policyVersion`. */
export function minPolicyVersion(policyVersion: number, bound: number): number {
  return Math.max(0, policyVersion - bound);
}

/** Splits a batch into the episodes within the bound and the stale ones. */
export function splitByLag(
  outcomes: readonly EpisodeOutcome[],
  policyVersion: number,
  bound: number,
): { fresh: EpisodeOutcome[]; stale: EpisodeOutcome[]; lag: LagSummary } {
  const lags = outcomes.map((o) => lagOf(o, policyVersion));
  const fresh = outcomes.filter((_, i) => lags[i]! <= bound);
  const stale = outcomes.filter((_, i) => lags[i]! > bound);
  const lag: LagSummary = {
    bound,
    max: lags.length > 0 ? Math.max(...lags) : 0,
    mean: lags.length > 0 ? lags.reduce((a, b) => a + b, 0) / lags.length : 0,
    stale: stale.length,
  };
  return { fresh, stale, lag };
}
