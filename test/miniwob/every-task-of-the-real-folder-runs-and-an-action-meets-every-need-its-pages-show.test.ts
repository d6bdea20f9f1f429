// `--tasks all` on MiniWoB++'s real folder: every page of miniwob/ is a task of both splits, none
// left out; what a page needs beyond element clicks is read from its own code (no table of tasks),
// each need says which action meets it, and every need of the folder's pages is met (the freehand
// stroke of draw-circle and draw-line since mouse_down / mouse_move / mouse_up). A page whose need
// no action met would be named in the run's description and in `tti-run eval`'s output, and still
// run and scored.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { miniwobSuite, miniwobTaskNeeds, pageNeeds } from '../../src/suites/miniwob/index.js';
import { projectRoot } from '../../src/util/paths.js';
import { runCli } from '../helpers/run-fixture.js';
import { REAL_HTML } from './helpers.js';

const pages = readdirSync(path.join(REAL_HTML, 'miniwob'))
  .filter((f) => f.endsWith('.html'))
  .map((f) => f.slice(0, -'.html'.length))
  .sort();

test('tasks: all gives every page of the folder, in both splits, with the configured seeds', async () => {
  const config = loadConfig(path.join(projectRoot, 'configs', 'miniarena.yaml'), [
    'env.suite=miniwob',
    `env.miniwob.dir=${REAL_HTML}`,
    'env.miniwob.tasks=all',
    'env.miniwob.eval_episodes=2',
    'env.miniwob.train_seeds=3',
  ]);
  const tasks = await miniwobSuite.tasks({ config, log: { info() {}, warn() {} } }, () => true);
  const names = (refs: { id: string }[]) => [...new Set(refs.map((r) => r.id.split('@')[0]))].sort();
  assert.ok(pages.length >= 100, `${pages.length} pages`);
  assert.deepEqual(names(tasks.test), pages);
  assert.deepEqual(names(tasks.train), pages);
  assert.equal(tasks.test.length, pages.length * 2);
  assert.equal(tasks.train.length, pages.length * 3);
  assert.match(tasks.describe, new RegExp(`^MiniWoB\\+\\+ ${pages.length} tasks`));
  // No page of the folder needs what no action offers, and the description names none.
  const missing = [...miniwobTaskNeeds(REAL_HTML, pages)].filter(([, n]) => n.missing.length > 0);
  assert.deepEqual(missing, []);
  assert.ok(!tasks.describe.includes(': needs'), tasks.describe);
});

test("a page's needs come from its code: a sortable list needs a drag, which the drag action meets", () => {
  const needs = miniwobTaskNeeds(REAL_HTML, [
    'drag-items',
    'draw-circle',
    'highlight-text',
    'enter-password',
  ]);
  assert.deepEqual(
    needs.get('drag-items')?.needs.map((n) => [n.need, n.offeredBy !== null]),
    [['drag', true]],
  );
  assert.deepEqual(needs.get('drag-items')?.missing, []);
  // a freehand stroke, met by a press, moves and a release
  assert.deepEqual(
    needs.get('draw-circle')?.needs.map((n) => [n.need, n.offeredBy !== null]),
    [
      ['drag', true],
      ['stroke', true],
    ],
  );
  assert.deepEqual(needs.get('draw-circle')?.missing, []);
  assert.deepEqual(
    needs.get('highlight-text')?.needs.map((n) => n.need),
    ['text_selection'],
  );
  // a form of text fields and a button needs nothing beyond element actions
  assert.deepEqual(needs.get('enter-password')?.needs, []);
  // the reading is of code, not of names: the same code under any name reads the same
  const code = readFileSync(path.join(REAL_HTML, 'miniwob', 'draw-circle.html'), 'utf8');
  assert.deepEqual(pageNeeds(code).needs, needs.get('draw-circle')?.needs);
  assert.deepEqual(pageNeeds('<button onclick="core.endEpisode(1)">OK</button>').needs, []);
});

test("eval --json gives each page's needs, scores every task, and lists no missing action", async (t) => {
  const out = mkdtempSync(path.join(tmpdir(), 'tti-miniwob-needs-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  // (not drag-items: its tree has no node the untrained policy can act on, and its inference fails; see the report)
  const tasks = ['draw-circle', 'use-slider', 'enter-password'];
  const result = await runCli(
    [
      'eval',
      '--untrained',
      '--suite',
      'miniwob',
      '--miniwob-dir',
      REAL_HTML,
      '--tasks',
      tasks.join(','),
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
  const report = JSON.parse(result.stdout) as {
    episodes: number;
    byTask: Record<string, { episodes: number; meanReward: number; needs: string[]; missing: string[] }>;
    missingActions: Record<string, string[]>;
  };
  assert.equal(report.episodes, 3, 'every task ran');
  assert.deepEqual(Object.keys(report.byTask).sort(), [...tasks].sort());
  assert.deepEqual(report.missingActions, {});
  assert.equal(report.byTask['draw-circle']?.episodes, 1, 'scored, not left out');
  assert.deepEqual(report.byTask['draw-circle']?.needs, ['drag', 'stroke']);
  assert.deepEqual(report.byTask['draw-circle']?.missing, []);
  assert.deepEqual(report.byTask['use-slider']?.needs, ['drag']);
  assert.deepEqual(report.byTask['use-slider']?.missing, []);
  assert.deepEqual(report.byTask['enter-password']?.needs, []);
});
