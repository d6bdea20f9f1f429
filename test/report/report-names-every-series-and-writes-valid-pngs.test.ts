// `tti-run report` on a run directory: index.html (self-contained: its PNGs inline, no scripts)
// names every series of every plot, the PNGs beside it are valid, non-blank images, and the eval
// table has a row per tier and template — "–" for tasks whose source has neither. An eval-only
// folder (`tti-run eval`) gets its table without plots.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { escapeHtml, parseMetrics, runPlots, writeRunReport } from '../../src/report/index.js';
import { runCli } from '../helpers/run-fixture.js';
import {
  decodePng,
  distinctColours,
  hasPngSignature,
  jsonl,
  metricsRows,
  pixelsNear,
} from './support/fixtures.js';

const root = mkdtempSync(path.join(tmpdir(), 'tti-report-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The fixture run, with eval rows as the loop writes them: successes, by template, unlabelled tasks. */
function runRows(): Record<string, unknown>[] {
  return metricsRows(9, 3).map((row) => {
    const evaluation = row.eval as Record<string, unknown> | null;
    if (evaluation === null) return row;
    const rate = (episodes: number, successes: number) => ({
      episodes,
      successes,
      success: successes / episodes,
    });
    return {
      ...row,
      eval: {
        ...evaluation,
        byTier: { '1': rate(10, 6), '2': rate(10, 3), none: rate(4, 1) },
        byTemplate: {
          shop_price: rate(10, 7),
          tracker_issue_assignee: rate(10, 2),
          unknown: rate(4, 1),
        },
      },
    };
  });
}

test('tti-run report writes one HTML file naming every series, valid PNGs and the eval table by tier and template', async () => {
  const runDir = path.join(root, 'run');
  const out = path.join(root, 'out');
  mkdirSync(runDir);
  const rows = runRows();
  writeFileSync(path.join(runDir, 'metrics.jsonl'), jsonl(rows));
  writeFileSync(
    path.join(runDir, 'state.json'),
    JSON.stringify({
      state: 'stopped',
      reason: 'completed 9 of 9 iterations',
      iteration: 9,
      policyVersion: 8,
    }),
  );
  writeFileSync(path.join(runDir, 'config.yaml'), 'run_name: report-fixture\niterations: 9\n');

  const result = await runCli(['report', '--run-dir', runDir, '--out', out], 180_000);
  assert.equal(result.code, 0, result.stderr);
  const plots = runPlots(parseMetrics(jsonl(rows)).rows);
  const written = result.stdout.trim().split('\n');
  assert.deepEqual(written, [
    path.join(out, 'index.html'),
    ...plots.map((p) => path.join(out, `${p.name}.png`)),
  ]);
  const html = readFileSync(path.join(out, 'index.html'), 'utf8');

  // The plots the issue asks for are there, each with every series it draws named under it.
  for (const name of [
    'learning-curve',
    'meanSteps',
    'replay',
    'envStepsPerSec',
    'learnerSamplesPerSec',
    'restarts',
  ])
    assert.ok(
      plots.some((p) => p.name === name),
      `the report has the ${name} plot`,
    );
  const wanted = [
    'train success',
    'eval success',
    'horizon',
    'train mean steps',
    'eval mean steps',
    'replay seen',
    'replay kept',
    'env steps/s',
    'learner samples/s',
    'restarts',
    'tier 1',
    'tier 2',
    'tier –',
  ];
  const named = new Set(plots.flatMap((p) => p.series.map((s) => s.name)));
  for (const series of wanted) assert.ok(named.has(series), `a plot draws "${series}"`);
  for (const plot of plots) {
    const figure = new RegExp(`<figure id="plot-${plot.name}">([\\s\\S]*?)</figure>`).exec(html)?.[1];
    assert.ok(figure, `the report shows ${plot.name}`);
    assert.ok(plot.series.length > 0, `${plot.name} draws something`);
    for (const s of plot.series) {
      assert.ok(figure.includes(`data-series="${escapeHtml(s.name)}"`), `${plot.name} names "${s.name}"`);
      assert.ok(s.points > 0, `${plot.name}: "${s.name}" has points`);
    }

    // Each PNG is a real image with the plot in it, and the HTML carries the same bytes inline.
    const bytes = readFileSync(path.join(out, `${plot.name}.png`));
    assert.ok(hasPngSignature(bytes));
    const png = decodePng(bytes);
    assert.ok(png.width > 600 && png.height > 300, `${plot.name}: ${png.width}×${png.height}`);
    assert.ok(distinctColours(png) > 30, `${plot.name} is not blank: ${distinctColours(png)} colours`);
    const white = pixelsNear(png, '#ffffff', 2);
    assert.ok(
      white > png.width * png.height * 0.3 && white < png.width * png.height * 0.99,
      `${plot.name}: white background, ink on it`,
    );
    assert.ok(
      figure.includes(`src="data:image/png;base64,${bytes.toString('base64')}"`),
      `${plot.name} is inline`,
    );
  }
  assert.doesNotMatch(html, /<script/i, 'no scripts');
  assert.doesNotMatch(html, /src="(?!data:)/, 'nothing loaded from elsewhere');

  // Eval by tier and template: one column per evaluation (iterations 3, 6, 9), "–" for unlabelled tasks.
  const tierTable = /<table class="eval-tier">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  assert.deepEqual(
    [...tierTable.matchAll(/<th>(iteration \d+)<\/th>/g)].map((m) => m[1]),
    ['iteration 3', 'iteration 6', 'iteration 9'],
  );
  assert.deepEqual(
    [...tierTable.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]),
    ['tier 1', 'tier 2', '–'],
  );
  assert.match(tierTable, /60\.0% <span class="muted">\(6\/10\)<\/span>/);
  const templateTable = /<table class="eval-template">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  assert.deepEqual(
    [...templateTable.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]),
    ['shop_price', 'tracker_issue_assignee', '–'],
  );
  assert.match(html, /tti run report · report-fixture/);
  assert.match(html, /stopped: completed 9 of 9 iterations/);
});

test('an eval folder (eval.json, no metrics) gets its table and no plots; an empty folder is refused', async () => {
  const evalDir = path.join(root, 'eval');
  mkdirSync(evalDir);
  writeFileSync(
    path.join(evalDir, 'eval.json'),
    JSON.stringify({
      episodes: 5,
      successes: 2,
      success: 0.4,
      meanSteps: 7,
      split: 'test',
      horizon: 30,
      byTier: { none: { episodes: 5, successes: 2, success: 0.4 } },
      byTemplate: { unknown: { episodes: 5, successes: 2, success: 0.4 } },
      results: [],
    }),
  );
  const report = await writeRunReport({ runDir: evalDir });
  assert.deepEqual(report.pngs, []);
  const html = readFileSync(report.html, 'utf8');
  assert.match(html, /<th>eval\.json \(test, horizon 30\)<\/th>/);
  assert.match(html, /<tr><td>–<\/td><td>40\.0% <span class="muted">\(2\/5\)<\/span><\/td><\/tr>/);

  const empty = path.join(root, 'empty');
  mkdirSync(empty);
  const refused = await runCli(['report', '--run-dir', empty]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /no metrics\.jsonl and no eval\.json/);
});
