// `tti-run report`: a run directory → OUT/index.html (self-contained) and OUT/<plot>.png. Reads
// metrics.jsonl (a training run) and/or eval.json (`tti-run eval`), plus state.json and
// config.yaml for the header; renders the run's plots with the one PlotRenderer. An untrained
// baseline (`--untrained-eval`) is the learning curve's rule and a column beside eval.json's.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { runSuiteLabel } from '../util/index.js';
import { EvalFile, evalTables } from './eval-tables.js';
import { type MetricsRow, readMetrics } from './metrics.js';
import { PlotRenderer } from './render.js';
import { type ReportPlot, reportHtml } from './report-html.js';
import { type RunPlot, runPlots } from './run-plots.js';
import type { UntrainedEval } from './untrained-eval.js';

export interface RunReportOptions {
  runDir: string;
  /** default RUN_DIR/report */
  out?: string;
  /** a renderer to reuse; one is launched (and closed) otherwise */
  renderer?: PlotRenderer;
  /** device scale of the PNGs (default 2) */
  scale?: number;
  /** the untrained policy's eval (`readUntrainedEval(file)`), read against the run */
  untrained?: UntrainedEval;
}

export interface RunReport {
  /** OUT/index.html */
  html: string;
  pngs: string[];
  plots: RunPlot[];
  rows: MetricsRow[];
  warnings: string[];
}

const State = z.looseObject({
  state: z.string().nullish().catch(null),
  reason: z.string().nullish().catch(null),
  iteration: z.number().nullish().catch(null),
  policyVersion: z.number().nullish().catch(null),
});
const Config = z.looseObject({
  run_name: z.string().nullish().catch(null),
  iterations: z.number().nullish().catch(null),
  // what runSuiteLabel reads: the suite the header names
  webarena_host: z.string().nullish().catch(null),
  tasks: z
    .looseObject({ train: z.string().nullish().catch(null), test: z.string().nullish().catch(null) })
    .nullish()
    .catch(null),
  env: z
    .looseObject({
      suite: z.string().nullish().catch(null),
      miniwob: z
        .looseObject({ dir: z.string().nullish().catch(null), url: z.string().nullish().catch(null) })
        .nullish()
        .catch(null),
    })
    .nullish()
    .catch(null),
});

function readOptional<T extends z.ZodType>(file: string, schema: T, parse: (text: string) => unknown) {
  if (!existsSync(file)) return null;
  try {
    const parsed = schema.safeParse(parse(readFileSync(file, 'utf8')));
    return parsed.success ? (parsed.data as z.infer<T>) : null;
  } catch {
    return null;
  }
}

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export async function writeRunReport(options: RunReportOptions): Promise<RunReport> {
  const runDir = path.resolve(options.runDir);
  const out = path.resolve(options.out ?? path.join(runDir, 'report'));
  const metricsFile = path.join(runDir, 'metrics.jsonl');
  const evalFile = path.join(runDir, 'eval.json');
  const hasMetrics = existsSync(metricsFile);
  const evaluation = readOptional(evalFile, EvalFile, JSON.parse);
  if (!hasMetrics && evaluation === null)
    throw new Error(`${runDir} has no metrics.jsonl and no eval.json: has the run completed an iteration?`);
  const warnings: string[] = [];
  const rows = hasMetrics ? readMetrics(metricsFile).rows : [];
  if (hasMetrics) warnings.push(...readMetrics(metricsFile).warnings.map((w) => w.text));
  if (existsSync(evalFile) && evaluation === null)
    warnings.push(`${evalFile}: not an eval summary; left out`);
  const state = readOptional(path.join(runDir, 'state.json'), State, JSON.parse);
  const config = readOptional(path.join(runDir, 'config.yaml'), Config, parseYaml);

  mkdirSync(out, { recursive: true });
  const untrained = options.untrained ?? null;
  const plots = rows.length > 0 ? runPlots(rows, untrained?.success) : [];
  const drawn: ReportPlot[] = [];
  if (plots.length > 0) {
    const renderer =
      options.renderer ??
      (await PlotRenderer.launch(options.scale === undefined ? {} : { scale: options.scale }));
    try {
      for (const plot of plots) {
        const file = await renderer.render(plot.spec, path.join(out, `${plot.name}.png`));
        drawn.push({ plot, file: path.basename(file), png: readFileSync(file) });
      }
    } finally {
      if (options.renderer === undefined) await renderer.close();
    }
  }
  const html = path.join(out, 'index.html');
  writeAtomic(
    html,
    reportHtml({
      name: config?.run_name ?? path.basename(runDir),
      suite: config === null ? null : runSuiteLabel(config),
      runDir,
      generatedAt: new Date().toISOString(),
      state: state
        ? {
            state: state.state ?? null,
            reason: state.reason ?? null,
            iteration: state.iteration ?? null,
            policyVersion: state.policyVersion ?? null,
          }
        : null,
      iterations: config?.iterations ?? null,
      rows,
      plots: drawn,
      tables: evalTables(rows, evaluation, { untrained }),
      untrained,
      warnings,
    }),
  );
  return { html, pngs: drawn.map((d) => path.join(out, d.file)), plots, rows, warnings };
}
