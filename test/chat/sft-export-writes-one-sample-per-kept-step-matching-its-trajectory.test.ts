// `tti-run export-sft` on a run directory: one sample per step of each kept trajectory, the
// conversation as the policy saw it (earlier replies, elided observations, the step's observation
// and note, the newest screenshots) and the step's reply as the target; filtered-out trajectories
// are not exported; images as files or data URLs are the recorded screenshots.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { SftSample } from '../../src/export/sft.js';
import type { Trajectory } from '../../src/protocol/index.js';
import { ReplayLog } from '../../src/replay/replay-log.js';
import { runCli } from '../helpers/run-fixture.js';

const noNodes = { ids: [], roles: [], names: [], depths: [], inViewport: [] };

function trajectory(id: string, reward: number, steps: number): Trajectory {
  return {
    type: 'trajectory',
    episodeId: id,
    taskId: `task-${id}`,
    site: 'shopping',
    intent: `Find the price (${id})`,
    horizon: 10,
    iteration: 1,
    reward,
    answer: '$5',
    steps: Array.from({ length: steps }, (_, i) => ({
      observation: `Tab 0 (current): page ${i}\n\n[${i}] RootWebArea 'page ${i}'`,
      url: `http://shop.test/p/${i}`,
      nodes: noNodes,
      note:
        i === 2 ? 'Invalid action: Format ERROR: the reply must contain both "Thought:" and "Action:"' : null,
      reply:
        i === steps - 1
          ? 'Thought: found it.\nAction: ANSWER [$5]'
          : `Thought: step ${i}.\nAction: Click [${i}]`,
      action: `click [${i}]`,
      policyVersion: 0,
    })),
  };
}

test('export-sft writes one sample per kept step, as the policy saw it, with the recorded screenshots', async (t) => {
  const runDir = mkdtempSync(path.join(tmpdir(), 'tti-sft-'));
  t.after(() => rmSync(runDir, { recursive: true, force: true }));
  const { log } = ReplayLog.open(path.join(runDir, 'replay'), 100);
  const kept = trajectory('kept', 1, 5);
  log.append(kept);
  log.append({ ...trajectory('failed', 0, 3), answer: null });
  log.append({ ...trajectory('na', 1, 2), answer: 'N/A' });
  log.close();
  // Screenshots recorded for steps 0-3, not step 4.
  mkdirSync(path.join(runDir, 'episodes', 'kept'), { recursive: true });
  for (let i = 0; i < 4; i++)
    writeFileSync(path.join(runDir, 'episodes', 'kept', `step-00${i}.jpg`), Buffer.from(`jpeg-${i}`));

  const out = path.join(runDir, 'export', 'train.jsonl');
  const files = await runCli(['export-sft', '--run-dir', runDir, '--out', out]);
  assert.equal(files.code, 0, files.stderr);
  assert.match(
    files.stdout,
    /5 samples from 1 kept trajectories \(4 images, 1 steps without a recorded screenshot\)/,
  );
  const samples = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as SftSample);
  assert.equal(samples.length, kept.steps.length);
  samples.forEach((sample, i) => {
    const step = kept.steps[i]!;
    assert.deepEqual(sample.metadata, {
      episode_id: 'kept',
      task_id: 'task-kept',
      site: 'shopping',
      step: i,
      steps: 5,
      reward: 1,
      iteration: 1,
      policy_version: 0,
    });
    const m = sample.messages;
    assert.equal(m[0]!.role, 'system');
    assert.deepEqual(m.at(-1), { role: 'assistant', content: step.reply }, 'the target is the step reply');
    // history: the earlier replies in order, between user turns
    const assistants = m.slice(0, -1).filter((x) => x.role === 'assistant');
    assert.deepEqual(
      assistants.map((x) => x.content),
      kept.steps.slice(0, i).map((s) => s.reply),
    );
    const users = m.filter((x) => x.role === 'user');
    assert.equal(users.length, i + 1);
    const text = (c: (typeof m)[number]['content']) =>
      typeof c === 'string' ? c : c.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    const current = text(users.at(-1)!.content);
    assert.ok(current.includes(step.observation) && current.includes(`URL: ${step.url}`));
    assert.equal(/did not work/.test(current), i === 2, 'the note of step 2 only');
    assert.match(text(users[0]!.content), /Task: Find the price \(kept\)/);
    for (const earlier of users.slice(0, -1)) assert.match(text(earlier.content), /Observation omitted/);
    // images: the newest 3 recorded screenshots up to this step, as copied files
    const images = users.flatMap((u) =>
      typeof u.content === 'string'
        ? []
        : u.content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : [])),
    );
    const expected = [0, 1, 2, 3].filter((s) => s <= i).slice(-3);
    assert.deepEqual(
      images.map((f) => readFileSync(f, 'utf8')),
      expected.map((s) => `jpeg-${s}`),
    );
    for (const f of images) assert.ok(f.startsWith(path.join(runDir, 'export', 'train-images', 'kept')));
  });

  const inline = path.join(runDir, 'inline.jsonl');
  const urls = await runCli(['export-sft', '--run-dir', runDir, '--out', inline, '--images', 'data_url']);
  assert.equal(urls.code, 0, urls.stderr);
  const last = JSON.parse(readFileSync(inline, 'utf8').trim().split('\n').at(-1)!) as SftSample;
  const lastImages = last.messages.flatMap((x) =>
    typeof x.content === 'string'
      ? []
      : x.content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : [])),
  );
  assert.deepEqual(
    lastImages,
    [1, 2, 3].map((s) => `data:image/jpeg;base64,${Buffer.from(`jpeg-${s}`).toString('base64')}`),
  );

  const missing = await runCli(['export-sft', '--run-dir', path.join(runDir, 'nope'), '--out', inline]);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /nope does not exist: pass a run directory/);
});
