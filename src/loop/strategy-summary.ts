// What the strategies that ran an iteration's episodes added to their results (a search's
// rollouts and pages, src/episode/strategy.ts `extras`), for its metrics row: per strategy, how
// many episodes it ran and how many succeeded, and the sum and the largest of each of its numbers.
// The loop knows no strategy: it reads the numbers by the names each one sent.
import type { EpisodeOutcome } from './episode.js';

export interface StrategySummary {
  episodes: number;
  successes: number;
  /** each number summed over the episodes (null ones left out) */
  sum: Record<string, number>;
  /** the largest of each number */
  max: Record<string, number>;
}

/** Per strategy name, what its episodes added; null when no episode had a strategy's numbers. */
export function summarizeStrategies(
  results: readonly EpisodeOutcome[],
): Record<string, StrategySummary> | null {
  const out: Record<string, StrategySummary> = {};
  for (const r of results) {
    const counted = new Set<string>();
    for (const { strategy, name, value } of r.extras ?? []) {
      const s = out[strategy] ?? { episodes: 0, successes: 0, sum: {}, max: {} };
      out[strategy] = s;
      if (!counted.has(strategy)) {
        counted.add(strategy);
        s.episodes += 1;
        if (r.reward > 0) s.successes += 1;
      }
      if (value === null) continue;
      s.sum[name] = (s.sum[name] ?? 0) + value;
      s.max[name] = Math.max(s.max[name] ?? value, value);
    }
  }
  return Object.keys(out).length === 0 ? null : out;
}
