import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BrowserEnv, type EpisodeRecord, RECHECK_NOTE, type StepResult } from '../../src/envs/index.js';
import { page, serve, type TestServer } from './support/server.js';
import { webarenaTask } from './support/tasks.js';

let server: TestServer;
let env: BrowserEnv;
let url: string;
before(async () => {
  server = await serve({
    '/q': page('Question', '<h1>Is it?</h1><input aria-label="Box"><a href="/q">Again</a>'),
  });
  url = `${server.origin}/q`;
  env = await BrowserEnv.launch({});
});
after(async () => {
  await env.close();
  await server.close();
});

/** Runs replies until the episode ends; returns every step result. */
async function run(replies: string[]): Promise<StepResult[]> {
  const out: StepResult[] = [];
  for (const r of replies) {
    const res = await env.step(r);
    out.push(res);
    if (res.done) break;
  }
  return out;
}

test('min_try 1: the first answer is final and scored', async () => {
  await env.reset(webarenaTask(url), { minTry: 1 });
  const [r] = await run(['```stop [Yes]```']);
  assert.equal(r!.done, true);
  const rec = r!.record!;
  assert.equal(rec.endReason, 'answer');
  assert.equal(rec.answer, 'Yes');
  assert.equal(rec.verdict.score, 1);
  assert.equal(rec.verdict.status, 'scored');
  assert.equal(rec.steps.length, 1);
});

test('min_try 2: the first answer brings a check-again note; the second answer stands', async () => {
  await env.reset(webarenaTask(url), { minTry: 2 });
  const rs = await run(['```stop [No]```', '```stop [yes]```']);
  assert.equal(rs[0]!.done, false);
  assert.deepEqual(rs[0]!.observation!.notes, [RECHECK_NOTE]);
  const rec = rs[1]!.record!;
  assert.equal(rec.answer, 'yes');
  assert.equal(rec.verdict.score, 1);
  assert.equal(rec.steps.length, 2);
  assert.deepEqual(rec.steps[1]!.notes, [RECHECK_NOTE]);
});

test('min_try 3: two re-checks, the third answer is final (a wrong last answer scores 0)', async () => {
  await env.reset(webarenaTask(url), { minTry: 3 });
  const rs = await run(['```stop [yes]```', '```scroll [down]```', '```stop [yes]```', '```stop [no]```']);
  assert.deepEqual(
    rs.map((r) => r.done),
    [false, false, false, true],
  );
  assert.deepEqual(rs[0]!.observation!.notes, [RECHECK_NOTE]);
  assert.deepEqual(rs[1]!.observation!.notes, []);
  assert.deepEqual(rs[2]!.observation!.notes, [RECHECK_NOTE]);
  assert.equal(rs[3]!.record!.answer, 'no');
  assert.equal(rs[3]!.record!.verdict.score, 0);
});

test('re-check steps count against the horizon; the last answer stands when it runs out', async () => {
  await env.reset(webarenaTask(url), { minTry: 3, horizon: 2 });
  const rs = await run(['```stop [yes]```', '```stop [yes]```', '```stop [yes]```']);
  assert.equal(rs.length, 2);
  const rec = rs[1]!.record!;
  assert.equal(rec.endReason, 'horizon');
  assert.equal(rec.answer, 'yes');
  assert.equal(rec.verdict.score, 1);
});

test('early stop after 3 unparseable replies in a row', async () => {
  await env.reset(webarenaTask(url));
  const rs = await run(['hmm', '```scroll [down]```', 'what', 'no idea', '???', 'never reached']);
  // The scroll breaks the first run of failures; the next three in a row end it.
  assert.equal(rs.length, 5);
  const rec = rs[4]!.record!;
  assert.equal(rec.endReason, 'early_stop');
  assert.equal(rec.answer, 'Early stop: Failed to parse actions for 3 times');
  assert.equal(rec.verdict.status, 'scored');
  assert.equal(rec.verdict.score, 0);
});

test('early stop after the same action 3 times in a row; typing into one element 3 times anywhere', async () => {
  await env.reset(webarenaTask(url));
  let rs = await run(['```scroll [down]```', '```scroll [down]```', '```scroll [down]```']);
  assert.equal(rs[2]!.record!.answer, 'Early stop: Same action for 3 times');

  const obs = await env.reset(webarenaTask(url));
  const box = obs.nodes.find((n) => n.role === 'textbox')!.id;
  rs = await run([
    `\`\`\`type [${box}] [a] [0]\`\`\``,
    '```scroll [down]```',
    `\`\`\`type [${box}] [b] [0]\`\`\``,
    '```scroll [up]```',
    `\`\`\`type [${box}] [c] [0]\`\`\``,
  ]);
  assert.equal(rs.length, 5);
  assert.equal(rs[4]!.record!.answer, 'Early stop: Same typing action for 3 times');
});

test('an early stop is no answer in the TTI format: "N/A", so "… for 3 times" does not pass must_include "3"', async () => {
  const three = { reference_answers: { must_include: ['3'] } };
  // WebArena's own answer for it contains the digit, and its evaluator passes it (as WebArena's does)
  await env.reset(webarenaTask(url, three));
  const rs = await run(['```scroll [down]```', '```scroll [down]```', '```scroll [down]```']);
  assert.equal(rs[2]!.record!.answer, 'Early stop: Same action for 3 times');
  assert.equal(rs[2]!.record!.verdict.score, 1);

  const tti = await BrowserEnv.launch({ actionFormat: 'tti' });
  try {
    await tti.reset(webarenaTask(url, three));
    let r = await tti.step('Thought: x\nAction: Scroll [down]');
    r = await tti.step('Thought: x\nAction: Scroll [down]');
    r = await tti.step('Thought: x\nAction: Scroll [down]');
    assert.equal(r.record!.endReason, 'early_stop');
    assert.equal(r.record!.answer, 'N/A');
    assert.equal(r.record!.verdict.score, 0);
    // with re-checking, the answer given before the repeats stands, as at the horizon
    await tti.reset(webarenaTask(url, three), { minTry: 2 });
    await tti.step('Thought: x\nAction: ANSWER [3]');
    for (let i = 0; i < 3; i++) r = await tti.step('Thought: x\nAction: Scroll [down]');
    assert.equal(r.record!.endReason, 'early_stop');
    assert.equal(r.record!.answer, '3');
  } finally {
    await tti.close();
  }
});

test('the horizon ends the episode: WebArena answers "Early stop: Reach max steps", TTI "N/A"', async () => {
  await env.reset(webarenaTask(url), { horizon: 3 });
  const rs = await run([
    '```scroll [down]```',
    '```scroll [up]```',
    '```scroll [down]```',
    '```stop [yes]```',
  ]);
  assert.equal(rs.length, 3);
  assert.equal(rs[2]!.record!.endReason, 'horizon');
  assert.equal(rs[2]!.record!.answer, 'Early stop: Reach max steps 3');

  const tti = await BrowserEnv.launch({ actionFormat: 'tti', horizon: 2 });
  try {
    await tti.reset(webarenaTask(url, { reference_answers: { fuzzy_match: 'N/A' } }));
    await tti.step('Thought: wait\nAction: Wait');
    const r = await tti.step('Thought: x\nAction: Scroll [down]');
    assert.equal(r.record!.answer, 'N/A');
    assert.equal(r.record!.verdict.score, 1);
  } finally {
    await tti.close();
  }
});

test('a finished episode is written to disk: steps, observations, actions, notes, screenshots, verdict', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-episodes-'));
  const rec = await BrowserEnv.launch({ recordDir: dir, observation: { screenshot: true } });
  try {
    await rec.reset(webarenaTask(url), { episodeId: 'ep-1' });
    await rec.step('nonsense');
    const r = await rec.step('```stop [yes]```');
    const onDisk = JSON.parse(readFileSync(path.join(dir, 'ep-1', 'record.json'), 'utf8')) as EpisodeRecord;
    assert.deepEqual(onDisk.verdict, r.record!.verdict);
    assert.equal(onDisk.steps.length, 2);
    assert.equal(onDisk.steps[0]!.reply, 'nonsense');
    assert.equal(onDisk.steps[0]!.action.type, 'none');
    assert.match(onDisk.steps[1]!.notes[0]!, /Invalid action/);
    assert.match(
      onDisk.steps[0]!.observation,
      /^Tab 0 \(current\): Question\n\n\[\d+\] RootWebArea 'Question'/,
    );
    assert.equal(onDisk.steps[0]!.url, url);
    assert.equal(onDisk.answer, 'yes');
    assert.ok(existsSync(path.join(dir, 'ep-1', onDisk.steps[0]!.screenshotFile!)));
  } finally {
    await rec.close();
  }
});
