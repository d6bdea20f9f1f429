// One row of metrics.jsonl per completed iteration (src/report reads them back).
import type { EpisodeOutcome } from './episode.js';
import type { EvalSummary } from './eval-summary.js';
import type { LagSummary } from './policy-lag.js';
import type { CollectSearchSummary } from './search-summary.js';

export interface MetricsRow {
  iteration: number;
  horizon: number;
  /** the collection's sampling temperature */
  temperature: number;
  policyVersion: number;
  envSteps: number;
  totalEnvSteps: number;
  train: {
    episodes: number;
    success: number;
    meanSteps: number;
    kept: number;
    /** collect.search: what the iteration's searches did (absent when none searched) */
    search?: CollectSearchSummary;
  };
  eval: (EvalSummary & { horizon: number; minTry: number }) | null;
  replay: { seen: number; kept: number };
  learner: {
    loss: number | null;
    trajectories: number;
    samples: number;
    skipped: number;
    samplesPerSec: number | null;
    durationMs: number;
  } | null;
  envStepsPerSec: number;
  learnerSamplesPerSec: number | null;
  restarts: number;
  requeued: number;
  wallMs: number;
  at: string;
  /** the asynchronous loop (rollout.max_policy_lag ≥ 1): the batch's policy lag at training; absent when synchronous */
  lag?: LagSummary;
  /** a chat policy's tokens this iteration (collection and eval episodes); absent for tfjs */
  tokens?: { prompt: number; completion: number; episodes: number; perEpisode: number };
}

/** Sums the token usage episodes reported; undefined when none did (a tfjs policy). */
export function tokenTotals(results: readonly EpisodeOutcome[]): MetricsRow['tokens'] {
  const withUsage = results.filter((r) => r.usage !== undefined);
  if (withUsage.length === 0) return undefined;
  const prompt = withUsage.reduce((n, r) => n + (r.usage?.promptTokens ?? 0), 0);
  const completion = withUsage.reduce((n, r) => n + (r.usage?.completionTokens ?? 0), 0);
  return {
    prompt,
    completion,
    episodes: withUsage.length,
    perEpisode: (prompt + completion) / withUsage.length,
  };
}
