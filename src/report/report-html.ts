// The run report as one HTML file: the plots embedded as PNG data URLs (so the file can be mailed
// or attached on its own), each with the series it draws named beneath it, then the eval table by
// tier and by template and a row per iteration. No scripts; every value is escaped.
import type { EvalColumn, EvalTables } from './eval-tables.js';
import type { MetricsRow } from './metrics.js';
import type { RunPlot } from './run-plots.js';
import type { UntrainedEval } from './untrained-eval.js';

export interface ReportPlot {
  plot: RunPlot;
  /** the PNG beside the report, relative to it */
  file: string;
  png: Buffer;
}

export interface ReportContent {
  name: string;
  /** the task suite the run was on (runSuiteLabel), null when config.yaml is missing */
  suite?: string | null;
  runDir: string;
  generatedAt: string;
  state: {
    state: string | null;
    reason: string | null;
    iteration: number | null;
    policyVersion: number | null;
  } | null;
  iterations: number | null;
  rows: readonly MetricsRow[];
  plots: readonly ReportPlot[];
  tables: EvalTables;
  /** the untrained baseline (`--untrained-eval`), named in the header */
  untrained?: UntrainedEval | null;
  warnings: readonly string[];
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const DASH = '–';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const pct = (v: unknown) => (isNum(v) ? `${(v * 100).toFixed(1)}%` : DASH);
const fixed = (v: unknown, digits = 1) => (isNum(v) ? v.toFixed(digits) : DASH);
const int = (v: unknown) => (isNum(v) ? String(Math.round(v)) : DASH);

const CSS = `
body{font:14px/1.45 system-ui,"DejaVu Sans","Liberation Sans",Arial,sans-serif;color:#222;max-width:1180px;margin:24px auto;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.muted{color:#666}.cards{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}
.card{border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:130px}.card b{display:block;font-size:18px}
.plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(540px,1fr));gap:18px}
figure{margin:0;border:1px solid #eee;border-radius:6px;padding:8px}figure img{max-width:100%;height:auto;display:block}
figcaption{font-size:12px;color:#444;margin-top:6px}figcaption ul{margin:2px 0 0;padding-left:18px}
.nodata{color:#999}
table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}th,td{border-bottom:1px solid #eee;padding:3px 10px;text-align:right}
th:first-child,td:first-child{text-align:left}thead th{border-bottom:1px solid #ccc}
.untrained{color:#555;font-style:italic}
.warn{color:#8a6d00;font-size:12px;white-space:pre-wrap}
`;

function summaryCards(c: ReportContent): string {
  const rows = c.rows;
  const last = rows.at(-1);
  const evals = rows.filter((r) => isNum(r.eval?.success));
  const lastEval = evals.at(-1);
  const best = evals.reduce<MetricsRow | undefined>(
    (b, r) => (b === undefined || (r.eval?.success ?? 0) > (b.eval?.success ?? 0) ? r : b),
    undefined,
  );
  const wallMs = rows.reduce((s, r) => s + (isNum(r.wallMs) ? r.wallMs : 0), 0);
  const cards: [string, string][] = [
    ['iterations', `${rows.length}${isNum(c.iterations) ? ` of ${c.iterations}` : ''}`],
    ['env steps', int(last?.totalEnvSteps)],
    ['train success (last)', pct(last?.train?.success)],
    ['eval success (last)', lastEval ? `${pct(lastEval.eval?.success)} at it. ${lastEval.iteration}` : DASH],
    ['eval success (best)', best ? `${pct(best.eval?.success)} at it. ${best.iteration}` : DASH],
    ['replay kept / seen', last?.replay ? `${int(last.replay.kept)} / ${int(last.replay.seen)}` : DASH],
    ['policy version', int(last?.policyVersion ?? c.state?.policyVersion)],
    ['restarts', int(last?.restarts)],
    ['wall time', wallMs > 0 ? `${(wallMs / 60_000).toFixed(1)} min` : DASH],
  ];
  return `<div class="cards">${cards
    .map(
      ([k, v]) =>
        `<div class="card"><span class="muted">${escapeHtml(k)}</span><b>${escapeHtml(v)}</b></div>`,
    )
    .join('')}</div>`;
}

function plotFigure(p: ReportPlot): string {
  const names = p.plot.series.map((s) => s.name);
  const alt = `${p.plot.title}: ${names.join(', ') || 'no series'}`;
  const items = p.plot.series
    .map(
      (s) =>
        `<li data-series="${escapeHtml(s.name)}">${escapeHtml(s.name)}${
          s.points === 0
            ? ' <span class="nodata">(no data yet)</span>'
            : ` <span class="muted">(${s.points} point${s.points === 1 ? '' : 's'})</span>`
        }</li>`,
    )
    .join('');
  return (
    `<figure id="plot-${escapeHtml(p.plot.name)}">` +
    `<img src="data:image/png;base64,${p.png.toString('base64')}" alt="${escapeHtml(alt)}">` +
    `<figcaption><b>${escapeHtml(p.plot.title)}</b> · <a href="${escapeHtml(p.file)}">${escapeHtml(p.file)}</a>` +
    `<ul>${items || '<li class="nodata">no series</li>'}</ul></figcaption></figure>`
  );
}

function evalTable(tables: EvalTables, kind: 'tier' | 'template'): string {
  const keys = kind === 'tier' ? tables.tiers : tables.templates;
  if (tables.columns.length === 0 || keys.length === 0) return '<p class="muted">No evaluation yet.</p>';
  // the baseline's cells are marked so that they read as a reference, not as one more evaluation
  const open = (tag: 'th' | 'td', c: EvalColumn) =>
    c.kind === 'untrained' ? `<${tag} class="untrained">` : `<${tag}>`;
  const head = `<tr><th>${kind}</th>${tables.columns.map((c) => `${open('th', c)}${escapeHtml(c.label)}</th>`).join('')}</tr>`;
  const cellText = (cell: { success: number; successes: number; episodes: number } | null | undefined) =>
    cell ? `${pct(cell.success)} <span class="muted">(${cell.successes}/${cell.episodes})</span>` : DASH;
  const body = keys
    .map((key) => {
      const label = kind === 'tier' && key !== DASH ? `tier ${key}` : key;
      const cells = tables.columns.map(
        (c) => `${open('td', c)}${cellText((kind === 'tier' ? c.byTier : c.byTemplate).get(key))}</td>`,
      );
      return `<tr><td>${escapeHtml(label)}</td>${cells.join('')}</tr>`;
    })
    .join('');
  const all = `<tr><th>all</th>${tables.columns.map((c) => `${open('th', c)}${cellText(c.overall)}</th>`).join('')}</tr>`;
  return `<table class="eval-${kind}"><thead>${head}</thead><tbody>${body}</tbody><tfoot>${all}</tfoot></table>`;
}

function iterationTable(rows: readonly MetricsRow[]): string {
  if (rows.length === 0) return '<p class="muted">No iteration completed yet.</p>';
  const head = [
    'iteration',
    'horizon',
    'train success',
    'eval success',
    'train mean steps',
    'replay kept / seen',
    'env steps/s',
    'learner samples/s',
    'loss',
    'restarts',
  ];
  const body = rows.map((r) => {
    const cells = [
      String(r.iteration),
      int(r.horizon),
      r.train ? `${pct(r.train.success)} (${int(r.train.episodes)})` : DASH,
      r.eval ? `${pct(r.eval.success)} (${int(r.eval.episodes)})` : DASH,
      fixed(r.train?.meanSteps),
      r.replay ? `${int(r.replay.kept)} / ${int(r.replay.seen)}` : DASH,
      fixed(r.envStepsPerSec, 2),
      fixed(r.learnerSamplesPerSec ?? r.learner?.samplesPerSec),
      fixed(r.learner?.loss, 3),
      int(r.restarts),
    ];
    return `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  return `<table class="iterations"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

function untrainedLine(u: UntrainedEval): string {
  const counts = isNum(u.successes) && isNum(u.episodes) ? ` (${u.successes}/${u.episodes})` : '';
  return `untrained baseline: ${u.file} · eval success ${pct(u.success)}${counts}`;
}

/** A suite without tiers (MiniWoB++, WebVoyager, …) gets no tier table: it would be one row of "–". */
function tiered(tables: EvalTables): boolean {
  return tables.tiers.some((t) => t !== DASH);
}

export function reportHtml(c: ReportContent): string {
  const state = c.state
    ? [c.state.state, c.state.reason].filter((s): s is string => typeof s === 'string' && s !== '').join(': ')
    : '';
  const baseline = c.untrained
    ? `<p class="muted" id="untrained-baseline">${escapeHtml(untrainedLine(c.untrained))}</p>`
    : '';
  const warnings =
    c.warnings.length > 0 ? `<h2>Warnings</h2><p class="warn">${escapeHtml(c.warnings.join('\n'))}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>tti report · ${escapeHtml(c.name)}</title><style>${CSS}</style></head>
<body>
<h1>tti run report · ${escapeHtml(c.name)}</h1>
<p class="muted" id="suite">${c.suite ? `${escapeHtml(c.suite)} · ` : ''}${escapeHtml(c.runDir)} · generated ${escapeHtml(c.generatedAt)}${state ? ` · ${escapeHtml(state)}` : ''}</p>
${baseline}
${summaryCards(c)}
<h2>Training</h2>
<div class="plots">${c.plots.map(plotFigure).join('\n')}</div>
${tiered(c.tables) ? `<h2>Eval success by tier</h2>\n${evalTable(c.tables, 'tier')}\n` : ''}<h2>Eval success by template</h2>
${evalTable(c.tables, 'template')}
<h2>Iterations</h2>
${iterationTable(c.rows)}
${warnings}
</body></html>
`;
}
