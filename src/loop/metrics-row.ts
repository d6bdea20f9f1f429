// One row of metrics.jsonl per completed iteration (src/report reads them back).
import type { EpisodeOutcome } from './episode.js';
import type { EvalSummary } from './eval-summary.js';
import type { LagSummary } from './policy-lag.js';
import type { StrategySummary } from './strategy-summary.js';

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
    /** what the strategies that ran its episodes added, by name (absent when none did): a search's rollouts, … */
    strategies?: Record<string, StrategySummary>;
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
  /** where the iteration's episodes spent their time; absent when no episode measured it */
  time?: EpisodeTime;
}

/**
 * The iteration's episode time: each part's share of the episodes' summed wall time (waiting for a
 * task included), and each env worker's busy share of the iteration's wall time (env utilization).
 */
export interface EpisodeTime {
  episodes: number;
  /** the episodes' summed wall time, waiting for a task included: the weight to combine rows by */
  totalMs: number;
  /** 1 − the task-wait share: the env workers' busy share, as `tti-run status` gives it */
  busy: number;
  /** `start`, `observe`, `policy`, … (the episode result's `timing` parts), shares summing to 1 */
  shares: Record<string, number>;
  /** ms a step, by part (within an episode: waiting for a task left out) */
  perStepMs: Record<string, number>;
  utilization: Record<string, number>;
}

export function episodeTime(results: readonly EpisodeOutcome[], wallMs: number): EpisodeTime | undefined {
  const timed = results.filter((r) => r.timing !== undefined);
  if (timed.length === 0) return undefined;
  const sums: Record<string, number> = {};
  for (const r of timed)
    for (const [key, ms] of Object.entries(r.timing ?? {})) {
      const part = key.replace(/Ms$/, '');
      sums[part] = (sums[part] ?? 0) + ms;
    }
  const total = Object.values(sums).reduce((a, b) => a + b, 0);
  const steps = timed.reduce((n, r) => n + r.steps, 0);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const busy: Record<string, number> = {};
  for (const r of timed) busy[r.workerId ?? '?'] = (busy[r.workerId ?? '?'] ?? 0) + (r.durationMs ?? 0);
  return {
    episodes: timed.length,
    totalMs: Math.round(total),
    busy: round(total > 0 ? 1 - (sums.taskWait ?? 0) / total : 0),
    shares: Object.fromEntries(Object.entries(sums).map(([p, ms]) => [p, round(total > 0 ? ms / total : 0)])),
    perStepMs: Object.fromEntries(
      Object.entries(sums)
        .filter(([p]) => p !== 'taskWait')
        .map(([p, ms]) => [p, Math.round(steps > 0 ? ms / steps : 0)]),
    ),
    utilization: Object.fromEntries(
      Object.entries(busy).map(([w, ms]) => [w, round(wallMs > 0 ? Math.min(1, ms / wallMs) : 0)]),
    ),
  };
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
