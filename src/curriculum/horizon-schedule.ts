// The interaction-horizon curriculum: how many steps an episode may take at each iteration.
// TTI's code: 10 at iteration 1, 20 at iterations 2–3, 30 from iteration 4 (a list whose last entry
// repeats). A multiplicative rule grows the horizon by a factor every `every` iterations, capped.

export type HorizonSchedule =
  | { kind: 'list'; horizons: readonly number[] }
  | { kind: 'multiplicative'; start: number; factor: number; every: number; max: number };

/** TTI's default schedule. */
export const TTI_SCHEDULE: HorizonSchedule = { kind: 'list', horizons: [10, 20, 20, 30] };

/** The horizon for 1-based `iteration`. */
export function horizonAt(schedule: HorizonSchedule, iteration: number): number {
  if (!Number.isInteger(iteration) || iteration < 1)
    throw new RangeError(`iteration must be ≥ 1, got ${iteration}`);
  if (schedule.kind === 'list') {
    const { horizons } = schedule;
    if (horizons.length === 0) throw new RangeError('a horizon list needs at least one entry');
    return horizons[Math.min(iteration, horizons.length) - 1]!;
  }
  const steps = Math.floor((iteration - 1) / schedule.every);
  return Math.min(schedule.max, Math.round(schedule.start * schedule.factor ** steps));
}
