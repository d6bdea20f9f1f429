// What the viewer reads: each step names the element it acted on with its box (in screenshot
// pixels) and the policy version; the record says where the episode sat in the run and the task's
// labels; summary.json lists it; screenshots are per episode.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BrowserEnv, type EpisodeRecord, type EpisodeSummary } from '../../src/envs/index.js';
import { page, serve, type TestServer } from './support/server.js';
import { webarenaTask } from './support/tasks.js';

let server: TestServer;
let env: BrowserEnv;
const dir = mkdtempSync(path.join(tmpdir(), 'tti-records-'));
before(async () => {
  server = await serve({
    '/': page(
      'Shop',
      '<div style="position:absolute;left:100px;top:200px"><button style="width:120px;height:40px">Buy</button></div>' +
        '<a href="/" style="position:absolute;left:10px;top:10px">Home</a>',
    ),
  });
  env = await BrowserEnv.launch({ actionFormat: 'tti', recordDir: dir });
});
after(async () => {
  await env.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

test('a step records the acted element, its box and the policy version; the record its run and labels', async () => {
  const obs = await env.reset(webarenaTask(`${server.origin}/`), {
    episodeId: 'ep-1',
    screenshot: true,
    labels: { template: 'shop_buy', tier: 2 },
    run: { iteration: 3, split: 'train', mode: 'collect', workerId: 'env-0', taskFile: 'tasks/x.json' },
  });
  const button = obs.nodes.find((n) => n.role === 'button' && n.name === 'Buy');
  assert.ok(button);
  await env.step(`Thought: buy it.\nAction: Click [${button.id}]`, { policyVersion: 7 });
  await env.step('Thought: no such element.\nAction: Click [99999]', { policyVersion: 8 });
  const done = await env.step('Thought: done.\nAction: ANSWER [yes]', { policyVersion: 8 });
  assert.equal(done.done, true);

  const folder = path.join(dir, 'ep-1');
  const record = read<EpisodeRecord>(path.join(folder, 'record.json'));
  const [click, missing, answer] = record.steps;
  assert.deepEqual(click!.target, {
    id: button.id,
    role: 'button',
    name: 'Buy',
    bounds: [100, 200, 120, 40],
  });
  assert.equal(click!.policyVersion, 7);
  assert.equal(missing!.target, null, 'an id the page did not show has no element');
  assert.equal(answer!.target, undefined, 'an answer names no element');
  assert.deepEqual(record.run, {
    iteration: 3,
    split: 'train',
    mode: 'collect',
    workerId: 'env-0',
    taskFile: 'tasks/x.json',
  });
  assert.equal(record.task.template, 'shop_buy');
  assert.equal(record.task.tier, 2);
  assert.deepEqual(
    readdirSync(folder).sort(),
    ['record.json', 'step-000.jpg', 'step-001.jpg', 'step-002.jpg', 'summary.json'],
    'every step has its screenshot',
  );

  const summary = read<EpisodeSummary>(path.join(folder, 'summary.json'));
  assert.deepEqual(
    {
      ...summary,
      startedAt: undefined,
      durationMs: undefined,
    },
    {
      episodeId: 'ep-1',
      taskId: 'test',
      intent: 'test task',
      sites: ['shopping'],
      taskFile: 'tasks/x.json',
      template: 'shop_buy',
      tier: 2,
      iteration: 3,
      split: 'train',
      mode: 'collect',
      workerId: 'env-0',
      policyVersions: [7, 8],
      steps: 3,
      success: true,
      score: 1,
      status: 'scored',
      why: record.verdict.why,
      endReason: 'answer',
      answer: 'yes',
      screenshots: 3,
      startedAt: undefined,
      durationMs: undefined,
    },
  );
});

test('screenshots are per episode: off unless the episode or the env asks', async () => {
  await env.reset(webarenaTask(`${server.origin}/`), { episodeId: 'ep-2' });
  await env.step('Thought: done.\nAction: ANSWER [no]');
  const folder = path.join(dir, 'ep-2');
  assert.deepEqual(readdirSync(folder).sort(), ['record.json', 'summary.json']);
  const summary = read<EpisodeSummary>(path.join(folder, 'summary.json'));
  assert.equal(summary.screenshots, 0);
  assert.equal(summary.iteration, null, 'outside a run');
  assert.equal(summary.template, null);
  assert.equal(summary.success, false);
  assert.ok(!existsSync(path.join(folder, 'step-000.jpg')));
});
