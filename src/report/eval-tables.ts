// Eval success by tier and by template, one column per evaluation: from metrics.jsonl's eval rows
// (a training run) and eval.json (`tti-run eval`). Tasks without a tier or template (a source
// with no labels) are filed by the eval summary under "none" / "unknown"; they show as "–".
// With an untrained baseline (`--untrained-eval`), eval.json's column gets an "untrained" one
// beside it.
import { z } from 'zod';
import type { MetricsRow } from './metrics.js';
import type { UntrainedEval } from './untrained-eval.js';

export const UNKNOWN_LABEL = '–';

export interface Cell {
  episodes: number;
  successes: number;
  success: number;
}

export interface EvalColumn {
  /** "iteration 4", "eval.json (test, horizon 30)", or "untrained" for the baseline */
  label: string;
  /** a run's in-run eval, eval.json, or the untrained baseline read against eval.json */
  kind: 'iteration' | 'eval' | 'untrained';
  overall: Cell | null;
  byTier: Map<string, Cell>;
  byTemplate: Map<string, Cell>;
}

export interface EvalTables {
  columns: EvalColumn[];
  /** row labels, sorted: tiers by number, templates by name; "–" last */
  tiers: string[];
  templates: string[];
}

const CountsSchema = z.looseObject({
  episodes: z.number().nullish(),
  successes: z.number().nullish(),
  success: z.number().nullish(),
});
const Table = z.record(z.string(), CountsSchema.nullish().catch(null)).nullish().catch(null);
/** eval.json as `tti-run eval` writes it (an EvalSummary and its results). */
export const EvalFile = z.looseObject({
  episodes: z.number().nullish().catch(null),
  successes: z.number().nullish().catch(null),
  success: z.number().nullish().catch(null),
  byTier: Table,
  byTemplate: Table,
  split: z.string().nullish().catch(null),
  horizon: z.number().nullish().catch(null),
});
export type EvalFile = z.infer<typeof EvalFile>;

/** Counts as metrics rows and eval.json hold them; older rows lack `successes`. */
type Counts =
  | { episodes?: number | null; successes?: number | null; success?: number | null }
  | null
  | undefined;

function cell(c: Counts): Cell | null {
  if (!c || typeof c.episodes !== 'number' || c.episodes <= 0) return null;
  const success = typeof c.success === 'number' ? c.success : (c.successes ?? 0) / c.episodes;
  const successes = typeof c.successes === 'number' ? c.successes : Math.round(success * c.episodes);
  return { episodes: c.episodes, successes, success };
}

function table(t: Record<string, Counts> | null | undefined, unknownKey: string) {
  const out = new Map<string, Cell>();
  for (const [key, counts] of Object.entries(t ?? {})) {
    const c = cell(counts);
    if (c !== null) out.set(key === unknownKey ? UNKNOWN_LABEL : key, c);
  }
  return out;
}

const byLabel = (numeric: boolean) => (a: string, b: string) => {
  if (a === UNKNOWN_LABEL || b === UNKNOWN_LABEL)
    return Number(a === UNKNOWN_LABEL) - Number(b === UNKNOWN_LABEL);
  if (numeric && Number.isFinite(Number(a)) && Number.isFinite(Number(b))) return Number(a) - Number(b);
  return a.localeCompare(b);
};

export interface EvalTablesOptions {
  /** the run's evaluations shown, the last ones (default 6) */
  maxColumns?: number;
  /** the untrained policy's eval: a column after eval.json's, when there is an eval.json */
  untrained?: UntrainedEval | null;
}

/**
 * One column per evaluation (the last `maxColumns` of the run, then eval.json's and, beside it, the
 * untrained baseline's), rows the union of the tiers and templates the policy's evaluations saw.
 */
export function evalTables(
  rows: readonly MetricsRow[],
  evalFile: EvalFile | null,
  options: EvalTablesOptions = {},
): EvalTables {
  const { maxColumns = 6, untrained = null } = options;
  const columns: EvalColumn[] = rows
    .filter((r) => r.eval)
    .slice(-maxColumns)
    .map((r) => ({
      label: `iteration ${r.iteration}`,
      kind: 'iteration' as const,
      overall: cell(r.eval),
      byTier: table(r.eval?.byTier, 'none'),
      byTemplate: table(r.eval?.byTemplate, 'unknown'),
    }));
  if (evalFile) {
    const what = [evalFile.split, evalFile.horizon ? `horizon ${evalFile.horizon}` : null].filter(Boolean);
    columns.push({
      label: what.length > 0 ? `eval.json (${what.join(', ')})` : 'eval.json',
      kind: 'eval',
      overall: cell(evalFile),
      byTier: table(evalFile.byTier, 'none'),
      byTemplate: table(evalFile.byTemplate, 'unknown'),
    });
  }
  // Only beside eval.json: both are `tti-run eval` summaries, so the baseline is read against the
  // policy's own eval of that kind; in a training run the baseline is the learning curve's rule.
  if (evalFile && untrained) {
    columns.push({
      label: 'untrained',
      kind: 'untrained',
      overall: cell(untrained),
      byTier: table(untrained.byTier, 'none'),
      byTemplate: table(untrained.byTemplate, 'unknown'),
    });
  }
  // Rows are what the policy was evaluated on; a tier or template only the baseline has is left out.
  const keys = (pick: (c: EvalColumn) => Map<string, Cell>) => [
    ...new Set(columns.filter((c) => c.kind !== 'untrained').flatMap((c) => [...pick(c).keys()])),
  ];
  return {
    columns,
    tiers: keys((c) => c.byTier).sort(byLabel(true)),
    templates: keys((c) => c.byTemplate).sort(byLabel(false)),
  };
}
