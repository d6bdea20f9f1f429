// Durations on the command line: "500ms", "5s", "2m", "1h", or a bare number of seconds.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (match === null) throw new Error(`'${text}' is not a duration (e.g. 500ms, 5s, 2m, 1h)`);
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!);
}
