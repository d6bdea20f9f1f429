// Where an env worker's time goes: an episode's wall time split into its parts (carried in the
// episode result), and the same parts summed in the worker's counters (its heartbeat), from which
// status and the live view show each env worker's busy share.
import { z } from 'zod';

/**
 * An episode's wall time, split: waiting for its task (before the result's `durationMs` starts),
 * then within `durationMs` the start (host reset, page load, seeding), observing, waiting for the
 * policy, executing actions, scoring (and closing the episode), and the rest (storing the
 * trajectory, bookkeeping).
 */
export const EpisodeTiming = z.object({
  taskWaitMs: z.number().nonnegative(),
  startMs: z.number().nonnegative(),
  observeMs: z.number().nonnegative(),
  policyMs: z.number().nonnegative(),
  executeMs: z.number().nonnegative(),
  scoreMs: z.number().nonnegative(),
  otherMs: z.number().nonnegative(),
});
export type EpisodeTiming = z.infer<typeof EpisodeTiming>;

/** The parts, in the order they are shown; the counter of each is `time.<part>` (ms). */
export const TIMING_PARTS = ['taskWait', 'start', 'observe', 'policy', 'execute', 'score', 'other'] as const;
export type TimingPart = (typeof TIMING_PARTS)[number];

const COUNTER_PREFIX = 'time.';

/** Whether a worker counter is one of the timing sums (shown as a split, not as a rate). */
export function isTimingCounter(key: string): boolean {
  return key.startsWith(COUNTER_PREFIX);
}

/** Adds an episode's timing to a worker's counters. */
export function countTiming(counters: Record<string, number>, timing: EpisodeTiming): void {
  for (const part of TIMING_PARTS) {
    const key = `${COUNTER_PREFIX}${part}`;
    counters[key] = (counters[key] ?? 0) + Math.round(timing[`${part}Ms`]);
  }
}

/** An env worker's time so far: its busy share (all but waiting for a task) and each part's share. */
export interface TimeSplit {
  totalMs: number;
  /** the share of its time the worker ran episodes (env utilization), 0…1 */
  busy: number;
  shares: Record<TimingPart, number>;
}

/** The split a worker's counters hold; null before its first measured episode. */
export function timeSplitOf(counters: Readonly<Record<string, number>>): TimeSplit | null {
  const ms = (part: TimingPart) => counters[`${COUNTER_PREFIX}${part}`] ?? 0;
  const totalMs = TIMING_PARTS.reduce((n, part) => n + ms(part), 0);
  if (totalMs <= 0) return null;
  const shares = Object.fromEntries(TIMING_PARTS.map((p) => [p, ms(p) / totalMs])) as Record<
    TimingPart,
    number
  >;
  return { totalMs, busy: 1 - shares.taskWait, shares };
}

/** One line of words for a split: "busy 93% (start 10%, observe 30%, …, waiting for a task 7%)". */
export function describeSplit(split: TimeSplit): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const words: Record<TimingPart, string> = {
    taskWait: 'waiting for a task',
    start: 'start',
    observe: 'observe',
    policy: 'policy',
    execute: 'execute',
    score: 'score',
    other: 'other',
  };
  const parts = TIMING_PARTS.filter((p) => p !== 'taskWait').map(
    (p) => `${words[p]} ${pct(split.shares[p])}`,
  );
  return `busy ${pct(split.busy)} (${parts.join(', ')}; ${words.taskWait} ${pct(split.shares.taskWait)})`;
}
