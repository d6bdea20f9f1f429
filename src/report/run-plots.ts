// The plots of one run, as `tti-run plot` writes them and `tti-run report` shows them: the
// learning curve, then one plot per metric field. Each plot says which series it draws, so a
// report can name them and tell which have no data yet.
import type { TopLevelSpec } from 'vega-lite';
import type { MetricsRow } from './metrics.js';
import { learningCurveSpec, METRIC_FIELDS, type MetricField, metricSpec } from './specs.js';

export interface PlotSeries {
  name: string;
  /** points drawn (0: in the legend, but no data yet) */
  points: number;
}

export interface RunPlot {
  /** file name without .png: learning-curve, meanSteps, … */
  name: 'learning-curve' | MetricField;
  title: string;
  spec: TopLevelSpec;
  series: PlotSeries[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The series a spec draws: its colour legend's domain, with the points each has in the layers' data. */
export function seriesOf(spec: TopLevelSpec): PlotSeries[] {
  const names: string[] = [];
  const points = new Map<string, number>();
  const visit = (unit: Json, inheritedData: unknown) => {
    const data = unit.data ?? inheritedData;
    const colour = isObject(unit.encoding) && isObject(unit.encoding.color) ? unit.encoding.color : null;
    if (colour && colour.field === 'series') {
      const domain = isObject(colour.scale) && Array.isArray(colour.scale.domain) ? colour.scale.domain : [];
      for (const name of domain) if (typeof name === 'string' && !names.includes(name)) names.push(name);
      const values = isObject(data) && Array.isArray(data.values) ? data.values : [];
      for (const value of values) {
        if (isObject(value) && typeof value.series === 'string')
          points.set(value.series, (points.get(value.series) ?? 0) + 1);
      }
    }
    if (Array.isArray(unit.layer)) for (const layer of unit.layer) if (isObject(layer)) visit(layer, data);
  };
  visit(spec as unknown as Json, undefined);
  return names.map((name) => ({ name, points: points.get(name) ?? 0 }));
}

const titleOf = (spec: TopLevelSpec): string => {
  const title = (spec as { title?: unknown }).title;
  if (typeof title === 'string') return title;
  if (isObject(title) && typeof title.text === 'string') return title.text;
  return '';
};

/**
 * Every plot of a run, in the order a report shows them; `untrained`: the untrained policy's eval
 * success on the run's eval tasks, a reference line on the learning curve.
 */
export function runPlots(rows: readonly MetricsRow[], untrained?: number): RunPlot[] {
  const plot = (name: RunPlot['name'], spec: TopLevelSpec): RunPlot => ({
    name,
    title: titleOf(spec),
    spec,
    series: seriesOf(spec),
  });
  return [
    plot('learning-curve', learningCurveSpec(rows, { untrained })),
    ...METRIC_FIELDS.map((field) => plot(field, metricSpec(rows, field))),
  ];
}
