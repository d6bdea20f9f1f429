// Which kept trajectories the learner trains on. TTI: when more than `count` pass the filter, draw
// `count` without replacement with p ∝ 0.5·recency + 0.5·class, where recency is the buffer index
// (normalised) and class is the inverse frequency of the trajectory's site (normalised), so recent
// trajectories and rare sites are favoured. Recency here is the episode's place in the run
// (iteration, then place in its collection phase), not the order replay received it in, which the
// env workers' timing decides: the same kept episodes and seed give the same sample.
import type { Trajectory } from '../protocol/index.js';

const byPlace = new Intl.Collator('en', { numeric: true });

/** Episode order: by iteration, then by episode id with numbers compared as numbers (…-c2 before …-c10). */
function episodeOrder(a: Trajectory, b: Trajectory): number {
  return a.iteration - b.iteration || byPlace.compare(a.episodeId, b.episodeId);
}

/** A copy of `trajectories` in episode order. */
function inEpisodeOrder(trajectories: readonly Trajectory[]): Trajectory[] {
  return trajectories.slice().sort(episodeOrder);
}

export function samplingWeights(trajectories: readonly Trajectory[]): number[] {
  const n = trajectories.length;
  if (n === 0) return [];
  const perSite = new Map<string, number>();
  for (const t of trajectories) perSite.set(t.site, (perSite.get(t.site) ?? 0) + 1);
  const recency = trajectories.map((_, k) => k + 1);
  const rarity = trajectories.map((t) => 1 / (perSite.get(t.site) ?? 1));
  const recencyTotal = recency.reduce((a, b) => a + b, 0);
  const rarityTotal = rarity.reduce((a, b) => a + b, 0);
  return trajectories.map((_, i) => 0.5 * (recency[i]! / recencyTotal) + 0.5 * (rarity[i]! / rarityTotal));
}

/**
 * `count` trajectories without replacement, weighted as TTI does (recency by episode order), in
 * episode order; all of them when there are no more than `count`. `random` returns uniform numbers
 * in [0, 1) (seeded by the caller, so a run's samples repeat).
 */
export function sampleTrajectories(
  trajectories: readonly Trajectory[],
  count: number,
  random: () => number,
): Trajectory[] {
  const ordered = inEpisodeOrder(trajectories);
  if (ordered.length <= count) return ordered;
  const weights = samplingWeights(ordered);
  // Efraimidis–Spirakis: the `count` largest keys u^(1/w) are a weighted sample without replacement.
  const keyed = ordered.map((t, i) => ({ t, i, key: random() ** (1 / weights[i]!) }));
  keyed.sort((a, b) => b.key - a.key);
  return keyed
    .slice(0, count)
    .sort((a, b) => a.i - b.i)
    .map((k) => k.t);
}

/** The oldest policy version that chose one of the trajectory's steps (null: it has no steps). */
export function oldestPolicyVersion(trajectory: Pick<Trajectory, 'steps'>): number | null {
  if (trajectory.steps.length === 0) return null;
  return Math.min(...trajectory.steps.map((s) => s.policyVersion));
}

/**
 * The trajectories every step of which was sampled under `minPolicyVersion` or newer, and how many
 * were left out as older (rollout.max_policy_lag: the learner trains on nothing past the bound). A
 * trajectory without steps has nothing to train on either way and is kept, unversioned.
 */
export function withinPolicyVersion(
  trajectories: readonly Trajectory[],
  minPolicyVersion: number | undefined,
): { fresh: Trajectory[]; stale: number } {
  if (minPolicyVersion === undefined) return { fresh: [...trajectories], stale: 0 };
  const fresh = trajectories.filter((t) => (oldestPolicyVersion(t) ?? minPolicyVersion) >= minPolicyVersion);
  return { fresh, stale: trajectories.length - fresh.length };
}
