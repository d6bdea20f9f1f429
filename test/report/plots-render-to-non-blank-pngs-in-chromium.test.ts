// Real Chromium: one renderer launch for several plots, then the convenience calls.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  comparisonSpec,
  drawLearningCurve,
  learningCurveSpec,
  type MetricsRow,
  metricSpec,
  PlotRenderer,
  parseMetrics,
  renderPng,
  renderSvg,
  SERIES_COLORS,
} from '../../src/report/index.js';
import {
  decodePng,
  distinctColours,
  hasPngSignature,
  jsonl,
  metricsRows,
  pixelsNear,
} from './support/fixtures.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tti-report-png-'));
const rows: MetricsRow[] = parseMetrics(jsonl(metricsRows(12, 3))).rows;
let renderer: PlotRenderer;

before(async () => {
  renderer = await PlotRenderer.launch();
});
after(async () => {
  await renderer?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The SVG's own size, which the PNG must match times the scale. */
async function svgSize(spec: Parameters<typeof renderSvg>[0], opts = {}) {
  const svg = await renderSvg(spec, opts);
  const [, w, h] = /<svg[^>]* width="([\d.]+)" height="([\d.]+)"/.exec(svg)!;
  return { width: Number(w), height: Number(h) };
}

test('a learning curve renders to a valid, non-blank PNG at twice its CSS size, with both success lines in it', async () => {
  const spec = learningCurveSpec(rows);
  const out = await renderer.render(spec, path.join(dir, 'nested', 'curve.png'));
  assert.equal(out, path.join(dir, 'nested', 'curve.png'));
  const bytes = readFileSync(out);
  assert.ok(hasPngSignature(bytes), 'PNG signature');
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR', 'IHDR comes first');
  const png = decodePng(bytes);
  const css = await svgSize(spec);
  assert.equal(png.width, Math.ceil(css.width) * 2);
  assert.equal(png.height, Math.ceil(css.height) * 2);
  assert.ok(distinctColours(png) > 50, `not blank: ${distinctColours(png)} colours`);
  assert.ok(pixelsNear(png, SERIES_COLORS['train success']) > 500, 'the train line is drawn');
  assert.ok(pixelsNear(png, SERIES_COLORS['eval success']) > 500, 'the eval line is drawn');
  const white = pixelsNear(png, '#ffffff', 2);
  assert.ok(white > png.width * png.height * 0.3, 'the background is white, not transparent or black');
});

test('one renderer draws a comparison and metric plots, at the size and scale asked for', async () => {
  const comparison = comparisonSpec(
    [
      { label: 'curriculum', rows },
      { label: 'fixed h=10', rows: rows.map((r) => ({ ...r, horizon: 10 })) },
    ],
    'totalEnvSteps',
    'trainSuccess',
  );
  const sized = { width: 300, height: 150, scale: 1 };
  const small = decodePng(readFileSync(await renderer.render(comparison, path.join(dir, 'cmp.png'), sized)));
  const css = await svgSize(comparison, sized);
  assert.deepEqual([small.width, small.height], [Math.ceil(css.width), Math.ceil(css.height)]);
  assert.ok(small.width < 500, `the plot area was shrunk to 300 px: ${small.width}`);
  assert.ok(distinctColours(small) > 20);
  for (const field of ['meanSteps', 'replay'] as const) {
    const png = decodePng(
      readFileSync(await renderer.render(metricSpec(rows, field), path.join(dir, `${field}.png`))),
    );
    assert.ok(png.width > 0 && png.height > 0 && distinctColours(png) > 20, field);
  }
});

test('renderPng and drawLearningCurve launch, render and close by themselves, reporting skipped lines', async () => {
  const file = path.join(dir, 'metrics.jsonl');
  writeFileSync(file, `${jsonl(metricsRows(6, 2))}{"broken"\n`);
  const drawn = await drawLearningCurve(file, path.join(dir, 'drawn.png'));
  assert.equal(drawn.rows, 6);
  assert.deepEqual(
    drawn.warnings.map((w) => w.line),
    [7],
  );
  assert.ok(decodePng(readFileSync(drawn.file)).width > 0);

  const one = await renderPng(metricSpec(rows, 'envStepsPerSec'), path.join(dir, 'eps.png'), { scale: 1 });
  const png = decodePng(readFileSync(one));
  const css = await svgSize(metricSpec(rows, 'envStepsPerSec'));
  assert.equal(png.width, Math.ceil(css.width));
});

test('a closed renderer refuses to render', async () => {
  const r = await PlotRenderer.launch();
  await r.close();
  await r.close();
  await assert.rejects(r.render(learningCurveSpec(rows), path.join(dir, 'no.png')), /closed/);
});
