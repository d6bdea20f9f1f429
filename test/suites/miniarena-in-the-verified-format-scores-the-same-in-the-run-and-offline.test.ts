// MiniArena's suite written in WebArena-Verified's format (`tti-run tasks export --format
// verified`) runs as the webarena-verified suite on a worker's own MiniArena (no webarena_host):
// real Chromium on MiniArena's real pages, the oracle solving some tasks and scripted episodes
// failing others, each verdict from their evaluators over the agent's response and the real
// network trace. The agent-logs layout the run leaves, scored by `tti-run score` in its own
// process, gives every task the same verdict, evaluator by evaluator.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import {
  Driver,
  generateTasks,
  type MiniArenaTask,
  ORACLE_ENV,
  SOLVERS,
  toOracleTask,
} from '../../src/arena/index.js';
import { resolveConfig } from '../../src/config/index.js';
import { type Action, BrowserEnv, type Verdict } from '../../src/envs/index.js';
import { type SuiteHost, suiteWorkerContext, verified } from '../../src/suites/index.js';
import { webArenaVerifiedSuite } from '../../src/suites/webarena-verified/index.js';
import { cliEntry, projectRoot } from '../../src/util/index.js';

const run = promisify(execFile);

let dir: string;
let runDir: string;
let taskFile: string;
let host: SuiteHost;
let env: BrowserEnv;
const raw = new Map<number, MiniArenaTask>();

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tti-verified-miniarena-'));
  runDir = path.join(dir, 'run');
  const out = path.join(dir, 'verified');
  const exported = await run(
    process.execPath,
    [cliEntry, 'tasks', 'export', '--format', 'verified', '--out', out],
    { cwd: projectRoot },
  );
  assert.match(exported.stdout, /wrote \d+ test tasks to /);
  taskFile = path.join(out, 'test.json');
  assert.deepEqual(verified.readVerifiedSplit(taskFile).issues, []);
  for (const t of generateTasks({ oracleLengths: null }).test) raw.set(t.task_id, t);
  const config = resolveConfig({ env: { suite: 'webarena-verified' }, tasks: { test: taskFile } }, 'test');
  host = await webArenaVerifiedSuite.start(
    suiteWorkerContext({ config, workerId: 'env-0', runDir, log: { info: () => {}, warn: () => {} } }),
  );
  env = await BrowserEnv.launch({
    ...ORACLE_ENV,
    actionFormat: 'tti',
    allowedOrigins: host.origins,
    ...(host.browser.hooks ? { hooks: host.browser.hooks } : {}),
  });
});
after(async () => {
  await env?.close();
  await host?.close();
});

/** The test split's tasks of a template (the test picks them; nothing in src/ does). */
function tasksOf(template: string): MiniArenaTask[] {
  const found = [...raw.values()].filter((t) => t.miniarena.template === template);
  assert.ok(found.length > 0, `no test task of ${template}`);
  return found;
}

function taskTypeOf(t: MiniArenaTask): 'retrieve' | 'navigate' | 'mutate' {
  const types = t.eval.eval_types;
  return types.includes('program_html') ? 'mutate' : types.includes('url_match') ? 'navigate' : 'retrieve';
}

/** Their response for an answer: the retrieved value as a list of one, SUCCESS. */
function responseOf(t: MiniArenaTask, answer: string | null): string {
  const type = taskTypeOf(t);
  return JSON.stringify({
    task_type: type,
    status: 'SUCCESS',
    retrieved_data: type === 'retrieve' ? [answer] : null,
    error_details: null,
  });
}

async function start(t: MiniArenaTask) {
  await host.beforeEpisode?.();
  return env.reset(host.task({ file: taskFile, id: String(t.task_id) }).task, { horizon: 60 });
}

/** The oracle's episode, its answer given as their response. */
async function oracle(t: MiniArenaTask): Promise<Verdict> {
  const first = await start(t);
  const answering = Object.create(env) as BrowserEnv;
  answering.step = async (action: Action | string) => {
    if (typeof action !== 'string' && action.type === 'stop')
      return env.step({ type: 'stop', answer: responseOf(t, action.answer) });
    return env.step(action);
  };
  const d = new Driver(answering, first);
  await SOLVERS[t.miniarena.template]!(d, toOracleTask(t));
  assert.ok(d.result, `the oracle answered task ${t.task_id}`);
  return d.result.record!.verdict;
}

/** An episode that answers at once, without acting. */
async function answerAtOnce(t: MiniArenaTask, answer: string | null): Promise<Verdict> {
  await start(t);
  const end = await env.step({ type: 'stop', answer: responseOf(t, answer) });
  assert.equal(end.done, true);
  return end.record!.verdict;
}

test('verified MiniArena tasks pass and fail on real pages, and tti-run score over their logs agrees', async () => {
  const verdicts = new Map<string, { verdict: Verdict; expect: 0 | 1 }>();
  const [price, wrongPrice] = tasksOf('shop_price');
  const [sorted, notSorted] = tasksOf('shop_category_sorted');
  const [reply] = tasksOf('forum_reply');
  const [close] = tasksOf('tracker_close_issue');
  const [cart] = tasksOf('shop_add_to_cart');
  const [issue] = tasksOf('tracker_create_issue');
  for (const t of [price!, sorted!, reply!, close!, issue!])
    verdicts.set(String(t.task_id), { verdict: await oracle(t), expect: 1 });
  // the wrong price; a sorted view never opened (the start page is the last navigation); a cart
  // claimed full with nothing sent
  verdicts.set(String(wrongPrice!.task_id), { verdict: await answerAtOnce(wrongPrice!, '$1.00'), expect: 0 });
  verdicts.set(String(notSorted!.task_id), { verdict: await answerAtOnce(notSorted!, null), expect: 0 });
  verdicts.set(String(cart!.task_id), { verdict: await answerAtOnce(cart!, null), expect: 0 });
  for (const [id, { verdict, expect }] of verdicts)
    assert.equal(
      verdict.score,
      expect,
      `task ${id} (${raw.get(Number(id))!.miniarena.template}): ${verdict.why}`,
    );
  // a site-changing task is scored by its requests too: the oracle's and the empty cart's
  assert.deepEqual(
    verdicts.get(String(reply!.task_id))!.verdict.parts.map((p) => p.evaluator),
    ['AgentResponseEvaluator', 'NetworkEventEvaluator'],
  );
  assert.match(verdicts.get(String(cart!.task_id))!.verdict.why, /no POST __SHOPPING__\/cart\/add/);

  // their layout: a response and a trace per task, the trace holding the start page's own load
  const logs = path.join(runDir, verified.AGENT_LOGS_DIR);
  const har = JSON.parse(readFileSync(path.join(logs, String(reply!.task_id), 'network.har'), 'utf8')) as {
    log: { entries: { request: { method: string; url: string }; response: { status: number } }[] };
  };
  assert.equal(har.log.entries[0]!.request.method, 'GET');
  assert.equal(
    har.log.entries[0]!.request.url.replace(/\/$/, ''),
    host.task({ file: taskFile, id: String(reply!.task_id) }).task.startUrls[0]!.replace(/\/$/, ''),
  );
  const post = har.log.entries.find((e) => e.request.method === 'POST');
  assert.equal(post?.response.status, 303, 'the reply form was posted and answered with a redirect');

  const { stdout } = await run(
    process.execPath,
    [cliEntry, 'score', '--tasks', taskFile, '--agent-logs', logs, '--json'],
    { cwd: projectRoot },
  );
  const scored = JSON.parse(stdout) as {
    tasks: number;
    byTask: Record<string, { score: number; evaluators: { name: string; score: number; reason: string }[] }>;
  };
  assert.equal(scored.tasks, verdicts.size);
  for (const [id, { verdict }] of verdicts) {
    const offline = scored.byTask[id];
    assert.ok(offline, `tti-run score scored task ${id}`);
    assert.equal(offline.score, verdict.score, `task ${id}`);
    assert.deepEqual(
      offline.evaluators.map((e) => [e.name, e.score, e.reason]),
      verdict.parts.map((p) => [p.evaluator, p.score, p.why]),
      `task ${id}`,
    );
  }
});
