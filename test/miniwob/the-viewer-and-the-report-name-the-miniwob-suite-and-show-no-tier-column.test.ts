// A `tti-run eval` on MiniWoB++'s real pages, then the viewer (its API and its page in real
// Chromium) and the report on that folder: both name the suite the run was on, MiniWoB++ and its
// folder, not MiniArena, and neither shows a tier column (MiniWoB++ has no tiers). A run on a suite
// with tiers keeps the column (test/viewer, test/report).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser } from '../../src/envs/index.js';
import { writeRunReport } from '../../src/report/index.js';
import { runSuiteLabel } from '../../src/util/index.js';
import { startViewer } from '../../src/viewer/server.js';
import { runCli } from '../helpers/run-fixture.js';
import { REAL_HTML } from './helpers.js';

let out: string;

before(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'tti-miniwob-view-'));
  const result = await runCli(
    [
      'eval',
      '--untrained',
      '--suite',
      'miniwob',
      '--miniwob-dir',
      REAL_HTML,
      '--tasks',
      'enter-password,click-test-2',
      '--episodes',
      '1',
      '--horizon',
      '1',
      '--json',
      '--out-dir',
      out,
      '--set',
      'workers.env=1',
    ],
    300000,
  );
  assert.equal(result.code, 0, result.stderr.slice(-2000));
});
after(() => rmSync(out, { recursive: true, force: true }));

test('the viewer names the MiniWoB++ suite and its folder, and hides the empty tier column', async () => {
  const viewer = await startViewer({ runDir: out, port: 0 });
  const browser = await launchBrowser();
  try {
    const run = (await (await fetch(`${viewer.url}api/run`)).json()) as { config: { tasks: string } };
    assert.equal(run.config.tasks, `MiniWoB++ (${REAL_HTML})`);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(viewer.url);
    await page.waitForFunction(`document.querySelectorAll('#episodes tbody tr').length === 2`);
    const header = await page.evaluate(`document.getElementById('run-state').textContent`);
    assert.match(String(header), /MiniWoB\+\+/);
    assert.doesNotMatch(String(header), /MiniArena/);
    const shown = await page.evaluate(`[...document.querySelectorAll('#episodes th')]
      .filter((th) => getComputedStyle(th).display !== 'none').map((th) => th.textContent)`);
    assert.ok(Array.isArray(shown) && shown.includes('template') && !shown.includes('tier'), String(shown));
    const cells = await page.evaluate(`[...document.querySelectorAll('#episodes td.tier')]
      .filter((td) => getComputedStyle(td).display !== 'none').length`);
    assert.equal(cells, 0);
    assert.equal(await page.evaluate(`document.getElementById('tier-filter').hidden`), true);
  } finally {
    await browser.close();
    await viewer.close();
  }
});

test('the report names the MiniWoB++ suite and leaves out the tier table', async () => {
  const report = await writeRunReport({ runDir: out, scale: 1 });
  const html = readFileSync(report.html, 'utf8');
  assert.ok(html.includes(`MiniWoB++ (${REAL_HTML})`), 'the header names the suite');
  assert.ok(!html.includes('Eval success by tier'), 'no tier table');
  assert.ok(html.includes('Eval success by template'), 'the template table stays (one row per task)');
  assert.ok(html.includes('enter-password') && html.includes('click-test-2'));
});

test("a run's suite label comes from its config, whatever the suite", () => {
  assert.equal(runSuiteLabel({}), 'MiniArena');
  assert.equal(
    runSuiteLabel({ env: { suite: 'miniwob', miniwob: { url: 'http://h/' } } }),
    'MiniWoB++ (http://h/)',
  );
  assert.equal(runSuiteLabel({ webarena_host: 'http://w' }), 'WebArena at http://w');
  assert.equal(runSuiteLabel({ env: { suite: 'webvoyager' } }), 'WebVoyager');
  assert.equal(runSuiteLabel({ tasks: { test: '/x/tasks.jsonl' } }), 'tasks from tasks.jsonl');
  assert.equal(runSuiteLabel({ env: { suite: './my-suite.js' } }), 'suite ./my-suite.js');
});
