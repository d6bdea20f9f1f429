// Which kept trajectories the learner trains on. TTI: when more than `count` pass the filter, draw
// `count` without replacement with p ∝ 0.5·recency + 0.5·class, where recency is the buffer index
// (normalised) and class is the inverse frequency of the trajectory's site (normalised), so recent
// trajectories and rare sites are favoured.
import type { Trajectory } from '../actors/protocol.js';

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
 * `count` trajectories without replacement, weighted as TTI does; all of them, in order, when there
 * are no more than `count`. `random` returns uniform numbers in [0, 1) (seeded for resumable runs).
 */
export function sampleTrajectories(
  trajectories: readonly Trajectory[],
  count: number,
  random: () => number,
): Trajectory[] {
  if (trajectories.length <= count) return [...trajectories];
  const weights = samplingWeights(trajectories);
  // Efraimidis–Spirakis: the `count` largest keys u^(1/w) are a weighted sample without replacement.
  const keyed = trajectories.map((t, i) => ({ t, key: random() ** (1 / weights[i]!) }));
  keyed.sort((a, b) => b.key - a.key);
  return keyed.slice(0, count).map((k) => k.t);
}
