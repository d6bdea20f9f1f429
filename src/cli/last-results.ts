// The run's latest finished figures for the live view and `status`, read from its metrics.jsonl:
// the last iteration's collection success and the last eval. A line still being written (or any
// line that is not a metrics row) is passed over: the view shows what is known, never fails on it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Result {
  iteration: number;
  episodes: number;
  /** the fraction of the episodes that succeeded */
  success: number;
}

export interface LastResults {
  collection: Result | null;
  eval: Result | null;
}

const resultOf = (iteration: unknown, part: unknown): Result | null => {
  if (typeof iteration !== 'number' || typeof part !== 'object' || part === null) return null;
  const { episodes, success } = part as { episodes?: unknown; success?: unknown };
  return typeof episodes === 'number' && typeof success === 'number'
    ? { iteration, episodes, success }
    : null;
};

/** The last results in the run directory `root` (nothing yet: both null). */
export function lastResults(root: string): LastResults {
  const metricsFile = path.join(root, 'metrics.jsonl');
  const found: LastResults = { collection: null, eval: null };
  if (!existsSync(metricsFile)) return found;
  for (const line of readFileSync(metricsFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let row: { iteration?: unknown; train?: unknown; eval?: unknown };
    try {
      row = JSON.parse(line) as typeof row;
    } catch {
      continue;
    }
    found.collection = resultOf(row.iteration, row.train) ?? found.collection;
    found.eval = resultOf(row.iteration, row.eval) ?? found.eval;
  }
  return found;
}
