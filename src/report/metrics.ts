// Reading a run's metrics.jsonl (one row per iteration) for plots. The reader is lenient on
// purpose: a plot of a half-written, resumed or older-format run is still worth drawing, so a bad
// line is skipped and named, a wrong-typed field becomes a gap, and extra fields are kept.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Builds the row schema; `lenient` turns every wrong-typed field into null (a gap). */
function rowSchema(lenient: boolean) {
  const num = () => (lenient ? z.number().nullish().catch(null) : z.number().nullish());
  const str = () => (lenient ? z.string().nullish().catch(null) : z.string().nullish());
  const obj = <T extends z.ZodRawShape>(shape: T) =>
    lenient ? z.looseObject(shape).nullish().catch(null) : z.looseObject(shape).nullish();
  const counts = obj({ episodes: num(), successes: num(), success: num() });
  const table = () =>
    lenient ? z.record(z.string(), counts).nullish().catch(null) : z.record(z.string(), counts).nullish();
  return z.looseObject({
    iteration: z.number().int().positive(),
    horizon: num(),
    temperature: num(),
    policyVersion: num(),
    envSteps: num(),
    totalEnvSteps: num(),
    train: obj({ episodes: num(), success: num(), meanSteps: num() }),
    eval: obj({
      episodes: num(),
      success: num(),
      meanSteps: num(),
      horizon: num(),
      minTry: num(),
      byTier: table(),
      byTemplate: table(),
    }),
    replay: obj({ seen: num(), kept: num() }),
    learner: obj({ loss: num(), samples: num(), samplesPerSec: num() }),
    envStepsPerSec: num(),
    learnerSamplesPerSec: num(),
    restarts: num(),
    wallMs: num(),
    at: str(),
  });
}

const typedRow = rowSchema(false);
const lenientRow = rowSchema(true);

/**
 * One iteration's metrics as read: the schema the training loop writes, with every field but
 * `iteration` possibly missing or null (a gap, never a zero). Extra fields are kept.
 */
export type MetricsRow = z.infer<typeof lenientRow>;

export interface MetricsWarning {
  /** 1-based line in the file. */
  line: number;
  /** `FILE:LINE: what was wrong and what was done`, ready to print. */
  text: string;
}

export interface MetricsRead {
  /** One row per iteration, sorted by iteration (the last row wins when one repeats). */
  rows: MetricsRow[];
  warnings: MetricsWarning[];
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`).join('; ');
}

/** Parses metrics.jsonl text; `source` names the file in warnings. */
export function parseMetrics(text: string, source = 'metrics.jsonl'): MetricsRead {
  const warnings: MetricsWarning[] = [];
  const byIteration = new Map<number, { row: MetricsRow; line: number }>();
  const warn = (line: number, message: string) =>
    warnings.push({ line, text: `${source}:${line}: ${message}` });
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      // The last line of a file being written may be cut short; say so rather than "not JSON".
      const cut = index === lines.length - 1 && !text.endsWith('\n');
      const why = cut ? 'an unfinished last line' : `not JSON (${(error as Error).message})`;
      warn(line, `${why}; skipped`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      warn(line, 'not a JSON object; skipped');
      return;
    }
    const parsed = lenientRow.safeParse(value);
    if (!parsed.success) {
      warn(line, `no usable iteration (${describeIssues(parsed.error.issues)}); skipped`);
      return;
    }
    const typed = typedRow.safeParse(value);
    if (!typed.success) warn(line, `${describeIssues(typed.error.issues)}; treated as gaps`);
    const earlier = byIteration.get(parsed.data.iteration);
    if (earlier) {
      warn(
        line,
        `iteration ${parsed.data.iteration} already on line ${earlier.line}; this later row is used`,
      );
    }
    byIteration.set(parsed.data.iteration, { row: parsed.data, line });
  });
  const rows = [...byIteration.values()].map((e) => e.row).sort((a, b) => a.iteration - b.iteration);
  return { rows, warnings };
}

/** Reads a metrics.jsonl file (see parseMetrics). A missing file throws. */
export function readMetrics(file: string): MetricsRead {
  return parseMetrics(readFileSync(file, 'utf8'), file);
}
