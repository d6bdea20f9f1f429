// Plots of a training run's metrics (metrics.jsonl) as PNGs: learning curve, run comparisons
// and the other per-iteration metrics; and the run report (HTML) built on them. See docs/plots.md.
import { type MetricsWarning, readMetrics } from './metrics.js';
import { PlotRenderer, type RenderOptions } from './render.js';
import { learningCurveSpec, type SpecOptions } from './specs.js';

export type { Cell, EvalColumn, EvalTables, EvalTablesOptions } from './eval-tables.js';
export { EvalFile, evalTables, UNKNOWN_LABEL } from './eval-tables.js';
export type { MetricsRead, MetricsRow, MetricsWarning } from './metrics.js';
export { parseMetrics, readMetrics } from './metrics.js';
export type { PlotRendererOptions, RenderOptions, SizeOptions } from './render.js';
export { PlotRenderer, renderPng, renderSvg, toVega } from './render.js';
export type { ReportContent, ReportPlot } from './report-html.js';
export { escapeHtml, reportHtml } from './report-html.js';
export type { PlotSeries, RunPlot } from './run-plots.js';
export { runPlots, seriesOf } from './run-plots.js';
export type { RunReport, RunReportOptions } from './run-report.js';
export { writeRunReport } from './run-report.js';
export type { ComparisonY, MetricField, SpecOptions, XField } from './specs.js';
export {
  comparisonSpec,
  horizonSegments,
  learningCurveSpec,
  METRIC_FIELDS,
  metricSpec,
  SERIES_COLORS,
} from './specs.js';
export type { UntrainedCounts, UntrainedEval } from './untrained-eval.js';
export { readUntrainedEval } from './untrained-eval.js';

export interface DrawnPlot {
  file: string;
  rows: number;
  warnings: MetricsWarning[];
}

/** metrics.jsonl → learning-curve PNG, in one call. */
export async function drawLearningCurve(
  metricsFile: string,
  outPng: string,
  options: SpecOptions & RenderOptions = {},
): Promise<DrawnPlot> {
  const { rows, warnings } = readMetrics(metricsFile);
  const renderer = await PlotRenderer.launch(options.scale === undefined ? {} : { scale: options.scale });
  try {
    const file = await renderer.render(learningCurveSpec(rows, options), outPng);
    return { file, rows: rows.length, warnings };
  } finally {
    await renderer.close();
  }
}
