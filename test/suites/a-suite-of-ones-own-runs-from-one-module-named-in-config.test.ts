// A user adds a suite by writing one module and naming it in the config (BrowserGym's
// register_task): the worked example of docs/envs.md, taken from the page as it is, runs an eval
// through the real CLI (supervisor, env worker, inference over ZeroMQ, Chromium on the module's own
// server). A module without a suite's parts, or none at all, stops the run saying what is missing.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { resolveConfig } from '../../src/config/load.js';
import { loadSuite } from '../../src/suites/index.js';
import { projectRoot } from '../../src/util/paths.js';
import { runCli, SMALL_RUN } from '../helpers/run-fixture.js';

/** The first ```js block after the heading, as docs/envs.md shows it. */
function exampleModule(): string {
  const doc = readFileSync(path.join(projectRoot, 'docs', 'envs.md'), 'utf8');
  const at = doc.indexOf('### A suite of your own');
  assert.ok(at >= 0, 'docs/envs.md has the worked example');
  const block = /```js\n([\s\S]*?)```/.exec(doc.slice(at));
  assert.ok(block, 'a js block follows the heading');
  return block[1]!;
}

test("the docs' worked example is a suite: eval runs its tasks on its pages and scores them by its verdict", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-own-suite-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const module = path.join(dir, 'button-suite.mjs');
  writeFileSync(module, exampleModule());
  const out = path.join(dir, 'eval');
  const sets = [...SMALL_RUN, `env.suite=${module}`, 'eval_tasks=0'];
  const result = await runCli(
    [
      'eval',
      '--untrained',
      '--horizon',
      '3',
      '--json',
      '--out-dir',
      out,
      ...sets.flatMap((s) => ['--set', s]),
    ],
    180000,
  );
  assert.equal(result.code, 0, result.stderr.slice(-3000));
  const report = JSON.parse(result.stdout) as {
    episodes: number;
    byTask?: Record<string, { episodes: number; meanReward: number }>;
  };
  assert.equal(report.episodes, 3, 'the three test seeds');
  assert.equal(report.byTask?.press?.episodes, 3, JSON.stringify(report));
  const summaries = readdirSync(path.join(out, 'episodes')).map(
    (id) =>
      JSON.parse(readFileSync(path.join(out, 'episodes', id, 'summary.json'), 'utf8')) as {
        taskId: string;
        intent: string;
        endReason: string;
        why: string;
      },
  );
  assert.deepEqual(summaries.map((s) => s.taskId).sort(), ['press@0', 'press@1', 'press@2']);
  for (const s of summaries) {
    assert.match(s.intent, /^Press the (red|green|blue) button\.$/);
    // The page's own end and verdict, or the horizon (an untrained policy may press nothing).
    if (s.endReason === 'task_done') assert.match(s.why, /^button: the page gave -?1$/);
    else assert.equal(s.endReason, 'horizon');
  }
});

test('a module that is not a suite stops the run naming the module and what it lacks', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-bad-suite-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = (suite: string) => resolveConfig({ env: { suite } }, 'test');
  const partial = path.join(dir, 'partial.mjs');
  writeFileSync(partial, "export default { name: 'half', tasks: () => ({}) };\n");
  await assert.rejects(
    loadSuite(config(partial)),
    /env\.suite .*partial\.mjs: the suite it exports has no start\(ctx\)/,
  );
  const empty = path.join(dir, 'empty.mjs');
  writeFileSync(empty, 'export const nothing = 1;\n');
  await assert.rejects(loadSuite(config(empty)), /empty\.mjs: the module exports no suite/);
  const broken = path.join(dir, 'broken.mjs');
  writeFileSync(broken, 'export default {\n');
  await assert.rejects(loadSuite(config(broken)), /broken\.mjs did not load/);
  await assert.rejects(loadSuite(config(path.join(dir, 'missing.mjs'))), /no module at/);
  await assert.rejects(loadSuite(config('nosuch')), /no such suite; the built-in ones are auto, miniarena/);
  // And through the CLI: the run stops before any worker starts.
  const run = await runCli(['eval', '--untrained', '--set', `env.suite=${partial}`, '--out-dir', dir], 60000);
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /has no start\(ctx\)/);
});
