// `--untrained-eval FILE` for `tti-run plot` and `tti-run report`: a `tti-run eval --json` summary
// of the untrained policy, the baseline a run is read against. One reader for both commands, so
// that they accept and refuse the same files with the same words.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../config/index.js';

const Counts = z.looseObject({
  episodes: z.number().int().min(0),
  // older summaries have only the rate; the tables derive the count from it
  successes: z.number().int().min(0).optional(),
  success: z.number().min(0).max(1),
});

/** What is read of an `eval --json` summary; the rest (meanSteps, results, …) is let through. */
const EvalSummaryFile = z.looseObject({
  success: z.number().min(0).max(1),
  episodes: z.number().int().min(0).optional(),
  successes: z.number().int().min(0).optional(),
  // optional: a summary of a source without labels may have neither table
  byTier: z.record(z.string(), Counts).optional(),
  byTemplate: z.record(z.string(), Counts).optional(),
});

export type UntrainedCounts = z.infer<typeof Counts>;

export interface UntrainedEval {
  /** the file it was read from, made absolute (the report names it) */
  file: string;
  /** overall success rate, 0–1 */
  success: number;
  episodes: number | null;
  successes: number | null;
  /** keyed as `eval --json` keys them: "1", "2", …, "none" for tasks without a tier */
  byTier: Record<string, UntrainedCounts>;
  /** keyed by template name, "unknown" for tasks without one */
  byTemplate: Record<string, UntrainedCounts>;
}

const SUMMARY = '`tti-run eval --json`';

/**
 * Reads `--untrained-eval FILE`. A missing file, a file that is not JSON, or JSON that is not an
 * eval summary is a ConfigError naming the file (the CLI exits 2 on it).
 */
export function readUntrainedEval(file: string): UntrainedEval {
  if (!existsSync(file)) throw new ConfigError(`--untrained-eval ${file} does not exist`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`--untrained-eval ${file} is not JSON: ${(e as Error).message}`);
  }
  const parsed = EvalSummaryFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    if (where === 'success')
      throw new ConfigError(
        `--untrained-eval ${file}: "success" must be a rate in [0, 1], as ${SUMMARY} prints it`,
      );
    if (where === '')
      throw new ConfigError(
        `--untrained-eval ${file} is not an eval summary (an object, as ${SUMMARY} prints it)`,
      );
    throw new ConfigError(
      `--untrained-eval ${file}: "${where}": ${issue?.message ?? 'invalid'}; expected an eval summary as ${SUMMARY} prints it`,
    );
  }
  const summary = parsed.data;
  return {
    file: path.resolve(file),
    success: summary.success,
    episodes: summary.episodes ?? null,
    successes: summary.successes ?? null,
    byTier: summary.byTier ?? {},
    byTemplate: summary.byTemplate ?? {},
  };
}
