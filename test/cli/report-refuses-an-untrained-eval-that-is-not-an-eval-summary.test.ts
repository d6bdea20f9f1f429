// `tti-run report --untrained-eval FILE` reads the file as `tti-run plot` does: a missing file, a
// file that is not JSON, or JSON that is not an `eval --json` summary is refused (exit 2) naming
// the file and what is wrong, before any report is written.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/run-fixture.js';

test('report --untrained-eval refuses a missing, non-JSON or non-summary file by name and writes nothing', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-report-refuses-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'eval.json'), JSON.stringify({ episodes: 2, successes: 1, success: 0.5 }));
  const out = path.join(dir, 'report');
  const refused = async (file: string) => {
    const result = await runCli(['report', '--run-dir', dir, '--out', out, '--untrained-eval', file]);
    assert.equal(result.code, 2, `${file}: ${result.stderr}`);
    assert.equal(existsSync(out), false, `${file}: no report written`);
    return result.stderr;
  };

  assert.match(await refused(path.join(dir, 'nope.json')), /--untrained-eval \S*nope\.json does not exist/);

  const notJson = path.join(dir, 'not-json.json');
  writeFileSync(notJson, 'episodes: 78\n');
  assert.match(await refused(notJson), /--untrained-eval \S*not-json\.json is not JSON/);

  const badRate = path.join(dir, 'bad-rate.json');
  writeFileSync(badRate, JSON.stringify({ episodes: 78, successes: 8, success: 8 }));
  assert.match(await refused(badRate), /bad-rate\.json: "success" must be a rate in \[0, 1\]/);

  const badTier = path.join(dir, 'bad-tier.json');
  writeFileSync(
    badTier,
    JSON.stringify({
      episodes: 78,
      successes: 8,
      success: 0.1,
      byTier: { '1': { episodes: 'all', success: 0.2 } },
    }),
  );
  assert.match(await refused(badTier), /bad-tier\.json: "byTier\.1\.episodes": .*eval summary/);

  const notObject = path.join(dir, 'list.json');
  writeFileSync(notObject, JSON.stringify([0.1]));
  assert.match(await refused(notObject), /list\.json is not an eval summary/);
});
