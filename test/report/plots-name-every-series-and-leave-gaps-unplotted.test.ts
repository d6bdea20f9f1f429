// Specs rendered to SVG in-process (Vega's headless renderer): what the plots say, no browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as vega from 'vega';
import {
  comparisonSpec,
  learningCurveSpec,
  METRIC_FIELDS,
  type MetricsRow,
  metricSpec,
  parseMetrics,
  renderSvg,
  toVega,
} from '../../src/report/index.js';
import { jsonl, metricsRows } from './support/fixtures.js';

const rows = (n = 12, evalEvery = 3): MetricsRow[] => parseMetrics(jsonl(metricsRows(n, evalEvery))).rows;

/** Text drawn in the SVG (legend labels, titles, axis titles, band labels). */
const texts = (svg: string): string[] => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

interface Drawn {
  marktype: string;
  x: number;
  y: number;
  datum: Record<string, unknown>;
}

/** Every drawn item of the rendered scenegraph whose datum belongs to `series`. */
async function drawn(spec: ReturnType<typeof learningCurveSpec>, series: string): Promise<Drawn[]> {
  const view = new vega.View(vega.parse(toVega(spec)), { renderer: 'none' });
  await view.runAsync();
  const out: Drawn[] = [];
  const visit = (node: unknown) => {
    const n = node as { marktype?: string; items?: unknown[] };
    for (const item of n.items ?? []) {
      const it = item as { x?: number; y?: number; datum?: Record<string, unknown> };
      if (it.datum?.series === series && (n.marktype === 'line' || n.marktype === 'symbol')) {
        out.push({ marktype: n.marktype, x: it.x ?? 0, y: it.y ?? 0, datum: it.datum });
      }
      visit(item);
    }
  };
  visit((view.scenegraph() as unknown as { root: unknown }).root);
  view.finalize();
  return out;
}

test('the learning curve names every series (train success, eval success, horizon) and labels each horizon band', async () => {
  const svg = await renderSvg(learningCurveSpec(rows()));
  const shown = texts(svg);
  for (const label of [
    'train success',
    'eval success',
    'horizon',
    'h=10',
    'h=20',
    'h=30',
    'Learning curve',
  ]) {
    assert.ok(shown.includes(label), `${label} in ${JSON.stringify(shown)}`);
  }
  assert.ok(shown.includes('100%') && shown.includes('0%'), 'the success axis runs 0..100%');
});

test("a long run's horizon band labels do not overlap, even for one-iteration bands", async () => {
  // TTI's schedule in a 40-iteration run: h=10 and h=20 bands are 1 and 2 iterations wide.
  const schedule = (i: number) => (i === 1 ? 10 : i <= 3 ? 20 : 30);
  const long = rows(40, 10).map((r) => ({ ...r, horizon: schedule(r.iteration) }));
  const view = new vega.View(vega.parse(toVega(learningCurveSpec(long))), { renderer: 'none' });
  await view.runAsync();
  const labels: { text: string; x1: number; x2: number; y1: number; y2: number }[] = [];
  const visit = (node: unknown) => {
    const n = node as { marktype?: string; items?: unknown[] };
    for (const item of n.items ?? []) {
      const it = item as { text?: unknown; bounds?: { x1: number; x2: number; y1: number; y2: number } };
      if (n.marktype === 'text' && typeof it.text === 'string' && it.text.startsWith('h=') && it.bounds)
        labels.push({ text: it.text, ...it.bounds });
      visit(item);
    }
  };
  visit((view.scenegraph() as unknown as { root: unknown }).root);
  view.finalize();
  assert.deepEqual(labels.map((l) => l.text).sort(), ['h=10', 'h=20', 'h=30']);
  for (const a of labels)
    for (const b of labels) {
      if (a === b) continue;
      const apart = a.x2 <= b.x1 || b.x2 <= a.x1 || a.y2 <= b.y1 || b.y2 <= a.y1;
      assert.ok(apart, `${a.text} ${JSON.stringify(a)} overlaps ${b.text} ${JSON.stringify(b)}`);
    }
});

test('iterations without an eval are not plotted, least of all as zero', async () => {
  const spec = learningCurveSpec(rows(12, 4));
  const height = 300;
  const evalItems = await drawn(spec, 'eval success');
  const evalIterations = [...new Set(evalItems.map((d) => d.datum.x))].sort((a, b) => Number(a) - Number(b));
  assert.deepEqual(evalIterations, [4, 8, 12], 'only evaluated iterations are drawn');
  assert.ok(
    evalItems.some((d) => d.marktype === 'line') && evalItems.some((d) => d.marktype === 'symbol'),
    'eval has a line and points',
  );
  for (const d of evalItems) {
    assert.ok(
      d.y < height - 1,
      `eval at iteration ${d.datum.x} drawn at y=${d.y}, the zero line is ${height}`,
    );
  }
  const trainIterations = new Set((await drawn(spec, 'train success')).map((d) => d.datum.x));
  assert.equal(trainIterations.size, 12, 'train success is drawn for every iteration');
});

test('a learning curve with no rows still draws, and says there are no metrics yet', async () => {
  const svg = await renderSvg(learningCurveSpec([]));
  assert.ok(texts(svg).includes('no metrics yet'));
});

test('a comparison names every run and puts env steps on x', async () => {
  const base = rows();
  const fixed = (h: number) => base.map((r) => ({ ...r, horizon: h }));
  const spec = comparisonSpec(
    [
      { label: 'curriculum', rows: base },
      { label: 'fixed h=10', rows: fixed(10) },
      { label: 'fixed h=30', rows: fixed(30) },
    ],
    'totalEnvSteps',
    'evalSuccess',
  );
  const shown = texts(await renderSvg(spec));
  for (const label of ['curriculum', 'fixed h=10', 'fixed h=30', 'env steps', 'eval success by env steps']) {
    assert.ok(shown.includes(label), `${label} in ${JSON.stringify(shown)}`);
  }
  const points = await drawn(spec, 'fixed h=30');
  assert.deepEqual(
    [...new Set(points.map((d) => d.datum.x))],
    [1500, 3000, 4500, 6000],
    'x is cumulative env steps at each eval',
  );
});

test('every metric plot renders with its series named', async () => {
  const expected: Record<string, string[]> = {
    meanSteps: ['train mean steps', 'eval mean steps', 'horizon'],
    replay: ['replay seen', 'replay kept'],
    envStepsPerSec: ['env steps/s'],
    learnerSamplesPerSec: ['learner samples/s'],
    loss: ['loss'],
    restarts: ['restarts'],
    evalByTier: ['tier easy', 'tier hard'],
  };
  assert.deepEqual([...METRIC_FIELDS].sort(), Object.keys(expected).sort());
  const data = rows();
  for (const field of METRIC_FIELDS) {
    const shown = texts(await renderSvg(metricSpec(data, field)));
    for (const label of expected[field]!) assert.ok(shown.includes(label), `${field}: ${label}`);
  }
  const learner = await drawn(metricSpec(data, 'learnerSamplesPerSec'), 'learner samples/s');
  assert.ok(!learner.some((d) => d.datum.x === 1), 'iteration 1 had no learner: a gap');
});

test('the untrained eval, when given, is a labelled rule at its rate on the success scale, and absent otherwise', async () => {
  const height = 300;
  const shown = texts(await renderSvg(learningCurveSpec(rows(), { untrained: 0.1, height })));
  assert.ok(shown.includes('untrained eval 10.0%'), JSON.stringify(shown));
  assert.ok(!texts(await renderSvg(learningCurveSpec(rows()))).some((t) => t.startsWith('untrained')));

  const view = new vega.View(vega.parse(toVega(learningCurveSpec(rows(), { untrained: 0.1, height }))), {
    renderer: 'none',
  });
  await view.runAsync();
  const rules: number[] = [];
  const visit = (node: unknown) => {
    const n = node as { marktype?: string; items?: unknown[] };
    for (const item of n.items ?? []) {
      const it = item as { y?: number; datum?: Record<string, unknown> };
      if (n.marktype === 'rule' && String(it.datum?.label).startsWith('untrained')) rules.push(it.y ?? -1);
      visit(item);
    }
  };
  visit((view.scenegraph() as unknown as { root: unknown }).root);
  view.finalize();
  assert.equal(rules.length, 1, 'one rule');
  assert.ok(Math.abs(rules[0]! - height * 0.9) < 1, `drawn at 10% of the success axis: y=${rules[0]}`);
});
