// `tti-run report --untrained-eval FILE`: the header names the file, the learning curve is the one
// `tti-run plot --untrained-eval` draws (runPlots with the file's rate: the dotted rule), and the
// eval tables get an "untrained" column beside eval.json's with the file's rates — "–" for a tier or
// template the file lacks, no row for one only the file has. Without an eval.json there is no column.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import {
  evalTables,
  PlotRenderer,
  parseMetrics,
  readUntrainedEval,
  runPlots,
} from '../../src/report/index.js';
import { runCli } from '../helpers/run-fixture.js';
import { decodePng, jsonl, metricsRows } from './support/fixtures.js';

const root = mkdtempSync(path.join(tmpdir(), 'tti-report-untrained-'));
after(() => rmSync(root, { recursive: true, force: true }));

const rate = (episodes: number, successes: number) => ({
  episodes,
  successes,
  success: successes / episodes,
});

/** Six iterations, eval every third, with tiers as MiniArena labels them. */
function runRows(): Record<string, unknown>[] {
  return metricsRows(6, 3).map((row) => {
    const evaluation = row.eval as Record<string, unknown> | null;
    if (evaluation === null) return row;
    return { ...row, eval: { ...evaluation, byTier: { '1': rate(20, 8), '2': rate(20, 2) } } };
  });
}

/** eval.json of `tti-run eval` on the test split: tiers 1–3 and unlabelled tasks, three templates. */
const policyEval = {
  ...rate(32, 6),
  meanSteps: 12,
  split: 'test',
  horizon: 30,
  byTier: { '1': rate(10, 4), '2': rate(10, 1), '3': rate(10, 0), none: rate(2, 1) },
  byTemplate: {
    forum_post_author: rate(10, 1),
    shop_price: rate(12, 5),
    tracker_issue_assignee: rate(10, 0),
  },
  results: [],
};

/** The untrained policy's `eval --json`: no tier 3, no unlabelled tasks, one template the policy's eval lacks. */
const untrainedSummary = {
  ...rate(78, 8),
  meanSteps: 6.1,
  byTier: { '1': rate(36, 7), '2': rate(33, 1) },
  byTemplate: {
    forum_post_author: rate(2, 0),
    shop_price: rate(2, 1),
    shop_only_untrained: rate(2, 2),
  },
  split: 'test',
  horizon: 30,
  policy: 'untrained',
};

/** A table's head labels and, per row label, its cells as text (tags stripped). */
function readTable(html: string, kind: 'tier' | 'template') {
  const table = new RegExp(`<table class="eval-${kind}">([\\s\\S]*?)</table>`).exec(html)?.[1];
  assert.ok(table, `the report has the ${kind} table`);
  const text = (cell: string) => cell.replace(/<[^>]*>/g, '');
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(table)?.[1] ?? '';
  const columns = [...head.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => text(m[1]!)).slice(1);
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  const rows = new Map<string, string[]>();
  for (const tr of body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)) {
    const cells = [...tr[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => text(m[1]!));
    rows.set(cells[0]!, cells.slice(1));
  }
  const foot = /<tfoot>([\s\S]*?)<\/tfoot>/.exec(table)?.[1] ?? '';
  const all = [...foot.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => text(m[1]!)).slice(1);
  return { columns, rows, all, untrainedCells: [...table.matchAll(/<t[dh] class="untrained">/g)].length };
}

test('report --untrained-eval names the file, draws the rule on the learning curve and puts the untrained rates beside eval.json', async () => {
  const runDir = path.join(root, 'run');
  const out = path.join(root, 'out');
  mkdirSync(runDir);
  const rows = runRows();
  writeFileSync(path.join(runDir, 'metrics.jsonl'), jsonl(rows));
  writeFileSync(path.join(runDir, 'eval.json'), JSON.stringify(policyEval));
  const untrainedFile = path.join(root, 'untrained.json');
  writeFileSync(untrainedFile, JSON.stringify(untrainedSummary));

  const result = await runCli(
    ['report', '--run-dir', runDir, '--out', out, '--untrained-eval', untrainedFile],
    180_000,
  );
  assert.equal(result.code, 0, result.stderr);
  const html = readFileSync(path.join(out, 'index.html'), 'utf8');

  // The header says where the baseline came from.
  assert.match(
    html,
    new RegExp(
      `<p class="muted" id="untrained-baseline">untrained baseline: ${untrainedFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} · eval success 10\\.3% \\(8/78\\)</p>`,
    ),
  );

  // By tier: the untrained column right after eval.json's, the file's rates, "–" where it has none.
  const tiers = readTable(html, 'tier');
  assert.deepEqual(tiers.columns, [
    'iteration 3',
    'iteration 6',
    'eval.json (test, horizon 30)',
    'untrained',
  ]);
  const untrained = tiers.columns.indexOf('untrained');
  const policy = tiers.columns.indexOf('eval.json (test, horizon 30)');
  assert.deepEqual([...tiers.rows.keys()], ['tier 1', 'tier 2', 'tier 3', '–']);
  assert.equal(tiers.rows.get('tier 1')?.[policy], '40.0% (4/10)');
  assert.equal(tiers.rows.get('tier 1')?.[untrained], '19.4% (7/36)');
  assert.equal(tiers.rows.get('tier 2')?.[untrained], '3.0% (1/33)');
  assert.equal(tiers.rows.get('tier 3')?.[untrained], '–', 'the file has no tier 3');
  assert.equal(tiers.rows.get('–')?.[untrained], '–', 'the file has no unlabelled tasks');
  assert.equal(tiers.all[policy], '18.8% (6/32)');
  assert.equal(tiers.all[untrained], '10.3% (8/78)');
  assert.equal(tiers.untrainedCells, 1 + 4 + 1, 'head, four rows and "all" are marked as the baseline');

  // By template: the same, and a template only the untrained policy was evaluated on is no row.
  const templates = readTable(html, 'template');
  assert.deepEqual(templates.columns, tiers.columns);
  assert.deepEqual([...templates.rows.keys()], ['forum_post_author', 'shop_price', 'tracker_issue_assignee']);
  assert.equal(templates.rows.get('shop_price')?.[policy], '41.7% (5/12)');
  assert.equal(templates.rows.get('shop_price')?.[untrained], '50.0% (1/2)');
  assert.equal(templates.rows.get('forum_post_author')?.[untrained], '0.0% (0/2)');
  assert.equal(templates.rows.get('tracker_issue_assignee')?.[untrained], '–');
  assert.doesNotMatch(html, /shop_only_untrained/);

  // The learning curve is runPlots(rows, untrained) rendered: the same pixels as that spec drawn
  // by the PlotRenderer, and not those of the curve without the rule.
  const parsed = parseMetrics(jsonl(rows)).rows;
  const [withRule] = runPlots(parsed, readUntrainedEval(untrainedFile).success);
  const [withoutRule] = runPlots(parsed);
  assert.equal(withRule?.name, 'learning-curve');
  assert.match(JSON.stringify(withRule?.spec), /untrained eval 10\.3%/);
  const renderer = await PlotRenderer.launch();
  let expected: Buffer;
  let plain: Buffer;
  try {
    expected = readFileSync(await renderer.render(withRule!.spec, path.join(root, 'expected', 'with.png')));
    plain = readFileSync(
      await renderer.render(withoutRule!.spec, path.join(root, 'expected', 'without.png')),
    );
  } finally {
    await renderer.close();
  }
  const reported = decodePng(readFileSync(path.join(out, 'learning-curve.png')));
  const drawn = decodePng(expected);
  assert.deepEqual([reported.width, reported.height], [drawn.width, drawn.height]);
  assert.ok(reported.pixels.equals(drawn.pixels), "the report's learning curve is plot's, rule included");
  assert.ok(!reported.pixels.equals(decodePng(plain).pixels), 'the rule is drawn');
});

test('without an eval.json the untrained eval gets no column (only the learning curve shows it)', () => {
  const file = path.join(root, 'untrained-no-eval.json');
  writeFileSync(file, JSON.stringify(untrainedSummary));
  const rows = parseMetrics(jsonl(runRows())).rows;
  const tables = evalTables(rows, null, { untrained: readUntrainedEval(file) });
  assert.deepEqual(
    tables.columns.map((c) => c.label),
    ['iteration 3', 'iteration 6'],
  );
  assert.deepEqual(tables.tiers, ['1', '2']);
});
