// Vega-Lite specs for a run's plots. Every spec carries its data inline, so it renders anywhere
// (renderPng here, the Vega editor, a notebook). Missing values are left out of the data, never
// drawn as zero: a line joins the iterations that have a value, and its points mark them.
import type { TopLevelSpec } from 'vega-lite';
import type { MetricsRow } from './metrics.js';

export const SERIES_COLORS = {
  'train success': '#4c78a8',
  'eval success': '#f58518',
  horizon: '#7f7f7f',
} as const;

/** Vega's category palette without its grey, which the horizon uses. */
const PALETTE = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#eeca3b', '#9d755d'];

export interface SpecOptions {
  title?: string;
  subtitle?: string;
  /** Plot area in CSS pixels (Vega-Lite's width/height); legends and axes add to it. */
  width?: number;
  height?: number;
  /**
   * Learning curve: the untrained policy's eval success on the run's eval tasks (`tti-run eval
   * --untrained --limit N`), drawn as a dotted rule for the eval line to be read against.
   */
  untrained?: number;
}

export type XField = 'iteration' | 'totalEnvSteps';
const X_TITLE: Record<XField, string> = { iteration: 'iteration', totalEnvSteps: 'env steps' };

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

interface Point {
  x: number;
  series: string;
  value: number;
}

/** Long-form points for the series that have a value at each row; gaps are left out. */
function points(
  rows: readonly MetricsRow[],
  x: XField,
  series: readonly { name: string; get: (r: MetricsRow) => unknown }[],
): Point[] {
  const out: Point[] = [];
  for (const row of rows) {
    const xv = row[x];
    if (!isNum(xv)) continue;
    for (const s of series) {
      const value = s.get(row);
      if (isNum(value)) out.push({ x: xv, series: s.name, value });
    }
  }
  return out;
}

/** Consecutive iterations with the same horizon: [first, last] and the horizon. */
export function horizonSegments(
  rows: readonly MetricsRow[],
): { from: number; to: number; horizon: number }[] {
  const segments: { from: number; to: number; horizon: number }[] = [];
  for (const row of rows) {
    if (!isNum(row.horizon)) continue;
    const last = segments.at(-1);
    if (last && last.horizon === row.horizon) last.to = row.iteration;
    else segments.push({ from: row.iteration, to: row.iteration, horizon: row.horizon });
  }
  return segments;
}

function titleOf(text: string, subtitle: string | undefined) {
  return subtitle ? { text, subtitle, anchor: 'start' as const } : { text, anchor: 'start' as const };
}

function size(options: SpecOptions, width = 560, height = 300) {
  return { width: options.width ?? width, height: options.height ?? height };
}

const LEGEND = {
  orient: 'bottom',
  direction: 'horizontal',
  symbolType: 'stroke',
  symbolStrokeWidth: 3,
  symbolSize: 300,
} as const;

/**
 * The horizon as a dashed step line. A row's horizon holds for its whole iteration: by
 * iteration the step is centred between iterations (where the bands change); by env steps it
 * covers the steps that iteration collected, up to its cumulative count.
 */
function horizonMark(x: XField): {
  type: 'line';
  interpolate: 'step' | 'step-before';
  strokeDash: number[];
  strokeWidth: number;
} {
  return {
    type: 'line',
    interpolate: x === 'iteration' ? 'step' : 'step-before',
    strokeDash: [5, 3],
    strokeWidth: 1.5,
  };
}

const BASE = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  background: 'white',
  padding: 12,
  config: { font: 'DejaVu Sans, Liberation Sans, Arial, sans-serif', view: { stroke: '#ddd' } },
} as const;

const BAND_LABEL_FONT = 11;

/**
 * Which row each band label goes in (0 above the plot, 1 inside its top edge): a label moves down
 * when it would overlap the last label above. Widths at 0.8 em a character, Vega's own estimate
 * without a canvas (DejaVu Sans is narrower).
 */
function bandLabelRows(
  bands: readonly { mid: number; label: string }[],
  xDomain: readonly [number, number],
  widthPx: number,
): number[] {
  const px = (x: number) => ((x - xDomain[0]) / (xDomain[1] - xDomain[0])) * widthPx;
  const halfWidth = (label: string) => (label.length * 0.8 * BAND_LABEL_FONT) / 2;
  const lastEnd = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  return bands.map((b) => {
    const start = px(b.mid) - halfWidth(b.label);
    const row = start >= lastEnd[0]! + 4 ? 0 : start >= lastEnd[1]! + 4 ? 1 : 0;
    lastEnd[row] = px(b.mid) + halfWidth(b.label);
    return row;
  });
}

/**
 * Success rate by iteration: train and eval lines (eval only where an evaluation ran), with the
 * horizon curriculum as shaded bands labelled "h=10", "h=20", … and a dashed step line on a
 * right-hand "horizon" axis.
 */
export function learningCurveSpec(rows: readonly MetricsRow[], options: SpecOptions = {}): TopLevelSpec {
  const success = points(rows, 'iteration', [
    { name: 'train success', get: (r) => r.train?.success },
    { name: 'eval success', get: (r) => r.eval?.success },
  ]);
  const horizon = points(rows, 'iteration', [{ name: 'horizon', get: (r) => r.horizon }]);
  const iterations = rows.map((r) => r.iteration);
  const xDomain: [number, number] =
    iterations.length > 0 ? [Math.min(...iterations) - 0.5, Math.max(...iterations) + 0.5] : [0, 1];
  const bands = horizonSegments(rows).map((s, i) => ({
    from: s.from - 0.5,
    to: s.to + 0.5,
    mid: (s.from + s.to) / 2,
    label: `h=${s.horizon}`,
    shade: i % 2,
  }));
  const labelRow = bandLabelRows(bands, xDomain, size(options).width);
  const x = {
    field: 'x',
    type: 'quantitative' as const,
    title: 'iteration',
    scale: { domain: xDomain, nice: false, zero: false },
    axis: { tickMinStep: 1, format: 'd' },
  };
  const color = {
    field: 'series',
    type: 'nominal' as const,
    title: null,
    scale: { domain: Object.keys(SERIES_COLORS), range: Object.values(SERIES_COLORS) },
    legend: LEGEND,
  };
  const empty = success.length === 0 && horizon.length === 0;
  return {
    ...BASE,
    ...size(options),
    title: titleOf(
      options.title ?? 'Learning curve',
      options.subtitle ??
        (empty ? 'no metrics yet' : 'success rate by iteration; bands: the horizon curriculum'),
    ),
    layer: [
      {
        data: { values: bands },
        mark: { type: 'rect', opacity: 0.5 },
        encoding: {
          x: { ...x, field: 'from' },
          x2: { field: 'to' },
          fill: {
            field: 'shade',
            type: 'nominal',
            scale: { domain: [0, 1], range: ['#f2f2f2', '#e4e4e4'] },
            legend: null,
          },
        },
      },
      // Band labels above the plot; one that would overlap its neighbour (a one-iteration band in
      // a long run) goes just inside the top edge instead.
      {
        data: { values: bands.filter((_, i) => labelRow[i] === 0) },
        mark: { type: 'text', baseline: 'bottom', dy: -4, fontSize: BAND_LABEL_FONT, color: '#555' },
        encoding: { x: { ...x, field: 'mid' }, y: { value: 0 }, text: { field: 'label' } },
      },
      {
        data: { values: bands.filter((_, i) => labelRow[i] === 1) },
        mark: { type: 'text', baseline: 'top', dy: 4, fontSize: BAND_LABEL_FONT, color: '#555' },
        encoding: { x: { ...x, field: 'mid' }, y: { value: 0 }, text: { field: 'label' } },
      },
      {
        data: { values: success },
        mark: { type: 'line', point: { size: 36 }, strokeWidth: 2 },
        encoding: {
          x,
          y: {
            field: 'value',
            type: 'quantitative',
            title: 'success rate',
            scale: { domain: [0, 1] },
            axis: { format: '.0%' },
          },
          color,
        },
      },
      {
        data: { values: horizon },
        mark: horizonMark('iteration'),
        encoding: {
          x,
          y: {
            field: 'value',
            type: 'quantitative',
            title: 'horizon',
            scale: { zero: true },
            axis: { orient: 'right', tickMinStep: 1, grid: false },
          },
          color,
        },
      },
      ...untrainedRule(options.untrained),
    ],
    resolve: { scale: { y: 'independent', fill: 'independent' } },
  } satisfies TopLevelSpec;
}

type Layer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

/** The untrained baseline on the success scale (no axis of its own), labelled at its left end. */
function untrainedRule(untrained: number | undefined): Layer[] {
  if (!isNum(untrained)) return [];
  const values = [{ value: untrained, label: `untrained eval ${(100 * untrained).toFixed(1)}%` }];
  const y = {
    field: 'value',
    type: 'quantitative' as const,
    scale: { domain: [0, 1] },
    axis: null,
  };
  return [
    {
      data: { values },
      mark: { type: 'rule', strokeDash: [2, 3], strokeWidth: 1.5, color: SERIES_COLORS['eval success'] },
      encoding: { y },
    },
    {
      data: { values },
      mark: {
        type: 'text',
        align: 'left',
        baseline: 'bottom',
        dx: 4,
        dy: -3,
        fontSize: 11,
        color: SERIES_COLORS['eval success'],
      },
      encoding: { y, x: { value: 0 }, text: { field: 'label' } },
    },
  ];
}

export type ComparisonY = 'evalSuccess' | 'trainSuccess';

/**
 * One line per run, for experiments (curriculum vs fixed horizons, say): eval or train success
 * against iterations or cumulative env steps. Runs keep the order (and colours) given.
 */
export function comparisonSpec(
  runs: readonly { label: string; rows: readonly MetricsRow[] }[],
  x: XField,
  y: ComparisonY,
  options: SpecOptions = {},
): TopLevelSpec {
  const get = y === 'evalSuccess' ? (r: MetricsRow) => r.eval?.success : (r: MetricsRow) => r.train?.success;
  const values = runs.flatMap((run) => points(run.rows, x, [{ name: run.label, get }]));
  const yName = y === 'evalSuccess' ? 'eval success' : 'train success';
  return {
    ...BASE,
    ...size(options),
    title: titleOf(
      options.title ?? `${yName} by ${X_TITLE[x]}`,
      options.subtitle ?? (values.length === 0 ? 'no metrics yet' : undefined),
    ),
    data: { values },
    mark: { type: 'line', point: { size: 30 }, strokeWidth: 2 },
    encoding: {
      x: {
        field: 'x',
        type: 'quantitative',
        title: X_TITLE[x],
        axis: x === 'iteration' ? { format: 'd' } : { format: '~s' },
      },
      y: {
        field: 'value',
        type: 'quantitative',
        title: yName,
        scale: { domain: [0, 1] },
        axis: { format: '.0%' },
      },
      color: {
        field: 'series',
        type: 'nominal',
        title: null,
        scale: { domain: runs.map((r) => r.label), range: PALETTE },
        legend: LEGEND,
      },
    },
  } satisfies TopLevelSpec;
}

interface MetricDef {
  title: string;
  yTitle: string;
  /** A rate in 0..1: the axis is fixed to 0..100 %. */
  rate?: boolean;
  /** Counts: whole-number ticks (a run with no restarts otherwise gets a "0.000000" tick). */
  integer?: boolean;
  series: (rows: readonly MetricsRow[]) => { name: string; get: (r: MetricsRow) => unknown }[];
}

const METRICS = {
  meanSteps: {
    title: 'Mean episode length',
    yTitle: 'steps per episode',
    series: () => [
      { name: 'train mean steps', get: (r) => r.train?.meanSteps },
      { name: 'eval mean steps', get: (r) => r.eval?.meanSteps },
      { name: 'horizon', get: (r) => r.horizon },
    ],
  },
  replay: {
    title: 'Replay',
    yTitle: 'trajectories',
    integer: true,
    series: () => [
      { name: 'replay seen', get: (r) => r.replay?.seen },
      { name: 'replay kept', get: (r) => r.replay?.kept },
    ],
  },
  envStepsPerSec: {
    title: 'Env throughput',
    yTitle: 'env steps/s',
    series: () => [{ name: 'env steps/s', get: (r) => r.envStepsPerSec }],
  },
  learnerSamplesPerSec: {
    title: 'Learner throughput',
    yTitle: 'learner samples/s',
    series: () => [
      { name: 'learner samples/s', get: (r) => r.learnerSamplesPerSec ?? r.learner?.samplesPerSec },
    ],
  },
  loss: {
    title: 'Learner loss',
    yTitle: 'loss',
    series: () => [{ name: 'loss', get: (r) => r.learner?.loss }],
  },
  restarts: {
    title: 'Worker restarts',
    yTitle: 'restarts',
    integer: true,
    series: () => [{ name: 'restarts', get: (r) => r.restarts }],
  },
  evalByTier: {
    title: 'Eval success by tier',
    yTitle: 'success rate',
    rate: true,
    series: (rows) => {
      const tiers = [...new Set(rows.flatMap((r) => Object.keys(r.eval?.byTier ?? {})))].sort();
      // The eval summary files tasks without a tier under "none": shown as "–", as everywhere.
      return tiers.map((tier) => ({
        name: `tier ${tier === 'none' ? '–' : tier}`,
        get: (r: MetricsRow) => r.eval?.byTier?.[tier]?.success,
      }));
    },
  },
} satisfies Record<string, MetricDef>;

export type MetricField = keyof typeof METRICS;
export const METRIC_FIELDS = Object.keys(METRICS) as MetricField[];

/**
 * The other plots a report needs, one per field: mean episode length (with the horizon),
 * replay seen/kept, env steps/s, learner samples/s, loss, restarts, eval success by tier.
 */
export function metricSpec(
  rows: readonly MetricsRow[],
  field: MetricField,
  options: SpecOptions & { x?: XField } = {},
): TopLevelSpec {
  const def: MetricDef = METRICS[field];
  if (!def) throw new Error(`unknown metric ${String(field)}; one of ${METRIC_FIELDS.join(', ')}`);
  const x = options.x ?? 'iteration';
  const series = def.series(rows);
  const measured = points(
    rows,
    x,
    series.filter((s) => s.name !== 'horizon'),
  );
  const horizon = points(
    rows,
    x,
    series.filter((s) => s.name === 'horizon'),
  );
  const names = series.map((s) => s.name);
  const range = names.map((n, i) => (n === 'horizon' ? SERIES_COLORS.horizon : PALETTE[i % PALETTE.length]!));
  const encoding = {
    x: {
      field: 'x',
      type: 'quantitative' as const,
      title: X_TITLE[x],
      axis: x === 'iteration' ? { format: 'd', tickMinStep: 1 } : { format: '~s' },
    },
    y: def.rate
      ? {
          field: 'value',
          type: 'quantitative' as const,
          title: def.yTitle,
          scale: { domain: [0, 1] },
          axis: { format: '.0%' },
        }
      : {
          field: 'value',
          type: 'quantitative' as const,
          title: def.yTitle,
          ...(def.integer ? { axis: { tickMinStep: 1, format: 'd' } } : {}),
        },
    color: {
      field: 'series',
      type: 'nominal' as const,
      title: null,
      scale: { domain: names, range },
      legend: LEGEND,
    },
  };
  return {
    ...BASE,
    ...size(options, 560, 240),
    title: titleOf(
      options.title ?? def.title,
      options.subtitle ?? (measured.length === 0 && horizon.length === 0 ? 'no data yet' : undefined),
    ),
    layer: [
      { data: { values: measured }, mark: { type: 'line', point: { size: 24 }, strokeWidth: 2 }, encoding },
      ...(horizon.length === 0
        ? []
        : [
            {
              data: { values: horizon },
              mark: horizonMark(x),
              encoding: { ...encoding, y: { ...encoding.y } },
            },
          ]),
    ],
  } satisfies TopLevelSpec;
}
