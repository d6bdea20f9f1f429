// `tti-run plot --untrained-eval FILE` takes `eval --json`'s summary; anything else is refused with
// the file and what was expected, before any plot is drawn.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/run-fixture.js';

test('plot --untrained-eval names the file and the field when it is not an eval summary', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-plot-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'metrics.jsonl'), '');
  const bad = path.join(dir, 'untrained.json');
  writeFileSync(bad, JSON.stringify({ success: 7, episodes: 78 }));
  const out = path.join(dir, 'plots');
  const result = await runCli(['plot', '--run-dir', dir, '--out', out, '--untrained-eval', bad]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /untrained\.json: "success" must be a rate in \[0, 1\]/);
  assert.equal(existsSync(out), false, 'nothing drawn');

  const missing = await runCli(['plot', '--run-dir', dir, '--untrained-eval', path.join(dir, 'nope.json')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.json does not exist/);
});
