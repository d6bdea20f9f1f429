// The collection temperature per iteration. TTI samples at 1.0 throughout; a list lets a run
// explore with its untrained policy's spread early and sample closer to what it has learned later
// (the last entry repeats, as horizon_schedule's does).

/** The temperature for 1-based `iteration` (collection). */
export function temperatureAt(temperature: number | readonly number[], iteration: number): number {
  if (!Number.isInteger(iteration) || iteration < 1)
    throw new RangeError(`iteration must be ≥ 1, got ${iteration}`);
  if (typeof temperature === 'number') return temperature;
  if (temperature.length === 0) throw new RangeError('a temperature list needs at least one entry');
  return temperature[Math.min(iteration, temperature.length) - 1]!;
}

/** The temperature a run ends at: what a chat policy's eval samples with. */
export function finalTemperature(temperature: number | readonly number[]): number {
  if (typeof temperature === 'number') return temperature;
  const last = temperature.at(-1);
  if (last === undefined) throw new RangeError('a temperature list needs at least one entry');
  return last;
}
