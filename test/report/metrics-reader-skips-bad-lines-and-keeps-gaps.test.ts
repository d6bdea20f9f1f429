import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseMetrics, readMetrics } from '../../src/report/index.js';
import { jsonl, metricsRows } from './support/fixtures.js';

test('malformed lines are skipped with a warning naming the file and the line', () => {
  const good = metricsRows(3).map((r) => JSON.stringify(r));
  const text = [
    good[0],
    'not json at all {',
    '',
    '{"horizon": 10, "train": {"success": 0.5}}',
    '[1, 2, 3]',
    good[1],
    '{"iteration": "three"}',
    good[2],
  ].join('\n');
  const { rows, warnings } = parseMetrics(`${text}\n`, 'runs/x/metrics.jsonl');
  assert.deepEqual(
    rows.map((r) => r.iteration),
    [1, 2, 3],
  );
  assert.deepEqual(
    warnings.map((w) => w.line),
    [2, 4, 5, 7],
  );
  assert.match(warnings[0]!.text, /^runs\/x\/metrics\.jsonl:2: not JSON .*; skipped$/);
  assert.match(
    warnings[1]!.text,
    /^runs\/x\/metrics\.jsonl:4: no usable iteration \(iteration: .*\); skipped$/,
  );
  assert.match(warnings[2]!.text, /:5: not a JSON object; skipped$/);
  assert.match(warnings[3]!.text, /:7: no usable iteration/);
});

test('a half-written last line is called unfinished, not an error in the run', () => {
  const { rows, warnings } = parseMetrics(`${JSON.stringify(metricsRows(1)[0])}\n{"iteration": 2, "hori`);
  assert.equal(rows.length, 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.text, /^metrics\.jsonl:2: an unfinished last line; skipped$/);
});

test('missing, null and wrong-typed fields are gaps (null or absent), never zeros; extra fields are kept', () => {
  const text = jsonl([
    { iteration: 1, horizon: 10, train: { success: 0.25 }, eval: null, futureField: { a: 1 } },
    { iteration: 2, horizon: 10, train: { success: 'high', meanSteps: 7 }, learner: null },
    { iteration: 3 },
  ]);
  const { rows, warnings } = parseMetrics(text);
  const [one, two, three] = rows;
  assert.equal(one!.eval, null);
  assert.equal(one!.train?.success, 0.25);
  assert.deepEqual((one as Record<string, unknown>).futureField, { a: 1 });
  assert.equal(two!.train?.success, null, 'a string success rate is a gap');
  assert.equal(two!.train?.meanSteps, 7, 'the rest of the object survives');
  assert.equal(two!.learner, null);
  assert.equal(three!.train, undefined);
  assert.equal(three!.horizon, undefined);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.text, /^metrics\.jsonl:2: train\.success: .*; treated as gaps$/);
});

test('a repeated iteration (a resumed run) keeps the later row, says so, and rows come out in order', () => {
  const [a, b, c] = metricsRows(3);
  const again = { ...b, train: { episodes: 64, success: 0.99, meanSteps: 5 } };
  const { rows, warnings } = parseMetrics(jsonl([c, a, b, again]));
  assert.deepEqual(
    rows.map((r) => r.iteration),
    [1, 2, 3],
  );
  assert.equal(rows[1]!.train?.success, 0.99);
  assert.deepEqual(
    warnings.map((w) => w.text),
    ['metrics.jsonl:4: iteration 2 already on line 3; this later row is used'],
  );
});

test('readMetrics reads a file and names it in warnings; a missing file throws', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-report-'));
  const file = path.join(dir, 'metrics.jsonl');
  writeFileSync(file, `${jsonl(metricsRows(4))}oops\n`);
  const { rows, warnings } = readMetrics(file);
  assert.equal(rows.length, 4);
  assert.deepEqual(
    warnings.map((w) => w.line),
    [5],
  );
  assert.ok(warnings[0]!.text.startsWith(`${file}:5: `));
  assert.throws(() => readMetrics(path.join(dir, 'absent.jsonl')), /ENOENT/);
  rmSync(dir, { recursive: true, force: true });
});
