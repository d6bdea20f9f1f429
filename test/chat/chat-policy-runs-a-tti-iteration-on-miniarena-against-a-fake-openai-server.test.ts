// The chat policy end to end: a real run (supervisor, env with Chromium on MiniArena, inference,
// replay, learner, all real processes over ZeroMQ) whose policy is a FAKE OpenAI-compatible server
// replaying scripted replies. Collection meets a 429, a garbage reply and a timeout; the episode
// goes on. The external learner runs a small command on the exported SFT file, loads its output as
// a LoRA adapter, and the eval episode is served by the new model name.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { FakeOpenAiServer, imagesOf, type RecordedRequest, textOf } from '../helpers/fake-openai-server.js';
import { RunFixture } from '../helpers/run-fixture.js';

const TRAINER = `
import { readFileSync, writeFileSync } from 'node:fs';
const [data, out, version] = process.argv.slice(2);
const samples = readFileSync(data, 'utf8').trim().split('\\n').map((l) => JSON.parse(l));
writeFileSync(out + '/adapter.json', JSON.stringify({ version, samples: samples.length, targets: samples.map((s) => s.messages.at(-1).content) }));
`;

const lastUser = (r: RecordedRequest): string => {
  const users = (r.body.messages ?? []).filter((m) => m.role === 'user');
  return textOf(users[users.length - 1]!.content);
};

test('a chat-policy run collects through 429s, garbage and timeouts, exports SFT, trains externally and serves the new model', async (t) => {
  const fake = await FakeOpenAiServer.start([
    { kind: 'status', status: 429 },
    { kind: 'text', text: 'I think the price is somewhere on this page.' },
    { kind: 'hang' },
    { kind: 'text', text: 'Thought: the product page is open.\nAction: Scroll [down]' },
    { kind: 'text', text: 'Thought: I can see the price.\nAction: ANSWER [$12]' },
    { kind: 'text', text: 'Thought: checked again, it holds.\nAction: ANSWER [$12]' },
  ]);
  const run = RunFixture.create();
  t.after(async () => {
    await run.cleanup();
    await fake.close();
  });
  const tasks = writeAnyAnswerTasks(run.runDir, 2);
  const trainer = path.join(run.runDir, 'trainer.mjs');
  writeFileSync(trainer, TRAINER);

  await run.startForeground(
    [
      'policy_lm=gemma-fake',
      `chat.base_url=${fake.baseUrl}`,
      'chat.timeout_ms=1500',
      'chat.backoff_initial_ms=50',
      'chat.backoff_max_ms=200',
      'chat.concurrency=2',
      'learner.kind=external',
      `learner.command=[${JSON.stringify(process.execPath)}, ${JSON.stringify(trainer)}, "{data}", "{out}", "{version}"]`,
      'learner.serve=lora',
      'learner.images=data_url',
      'iterations=1',
      'rollout_size=2',
      'horizon_schedule=[8]',
      // a schedule: collection samples at iteration 1's entry, eval at the last
      'temperature=[0.7, 0.3]',
      'min_try=2',
      'eval_tasks=1',
      'eval_horizon=4',
      'env.screenshot=true',
      `tasks.train=${tasks}`,
      `tasks.test=${tasks}`,
    ],
    false,
  );
  const code = await run.foregroundExit(300_000);
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);

  // Collection episodes: sampled with iteration 1's temperature and top_p, from the configured model.
  const requests = fake.completions;
  const collect = requests.filter((r) => r.body.model === 'gemma-fake');
  assert.ok(collect.length >= 6);
  assert.deepEqual(
    [...new Set(collect.map((r) => Number(r.body.temperature)))].sort((a, b) => a - b),
    [0.7],
    'every collection episode at 0.7',
  );
  assert.equal(collect[0]!.body.top_p, 0.95);
  assert.equal(collect[0]!.body.max_tokens, 1024);
  assert.deepEqual(
    requests.slice(0, 4).map((r) => r.reply),
    ['status', 'text', 'hang', 'text'],
    '429, then garbage, then a timeout',
  );
  // Every request carries its step's seed (vLLM's per-request seed): a retry resends the same
  // seed, the next step draws with another.
  for (const r of collect)
    assert.ok(Number.isInteger(r.body.seed), `a seed in ${JSON.stringify(r.body.seed)}`);
  const seeds = requests.slice(0, 4).map((r) => r.body.seed);
  assert.equal(seeds[1], seeds[0], "the 429's retry is step 0 again");
  assert.equal(seeds[3], seeds[2], "the timeout's retry is step 1 again");
  assert.notEqual(seeds[2], seeds[0], 'step 1 has its own seed');

  // Step 0: one user turn with the instructions, the task, the observation and a screenshot.
  const first = requests[0]!;
  assert.equal(first.body.messages?.[0]?.role, 'system');
  assert.match(lastUser(first), /Task: .+/);
  assert.match(lastUser(first), /Accessibility tree:\n/);
  assert.equal(imagesOf(first).length, 1);
  assert.match(imagesOf(first)[0]!, /^data:image\/jpeg;base64,\/9j\//, 'a JPEG screenshot');

  // The garbage reply was an invalid action: the next step's observation carries the error note,
  // the earlier observation is elided (its instructions kept), the garbage is the assistant turn.
  const afterGarbage = requests[2]!;
  assert.match(lastUser(afterGarbage), /your previous action did not work \(Format ERROR/);
  const turns = afterGarbage.body.messages ?? [];
  assert.deepEqual(
    turns.map((m) => m.role),
    ['system', 'user', 'assistant', 'user'],
  );
  assert.match(textOf(turns[1]!.content), /Task: [\s\S]*Observation omitted for previous steps/);
  assert.doesNotMatch(textOf(turns[1]!.content), /Accessibility tree:/);
  assert.equal(turns[2]!.content, 'I think the price is somewhere on this page.');
  assert.equal(imagesOf(afterGarbage).length, 2);

  // After the first ANSWER (min_try 2) the re-check note; by then only the newest 3 screenshots.
  const recheck = requests[5]!;
  assert.match(lastUser(recheck), /you have just answered\. Before the answer is final/);
  assert.equal((recheck.body.messages ?? []).filter((m) => m.role === 'assistant').length, 3);
  assert.equal(imagesOf(recheck).length, 3, 'the newest 3 screenshots of 4 steps');
  for (const r of requests) assert.ok(imagesOf(r).length <= 3);

  // The metrics row: both collection episodes succeeded (any answer does), usage counted once per
  // completion that answered (resends of a slow step are not paid twice).
  const row = JSON.parse(readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8').trim()) as {
    temperature: number;
    train: { episodes: number; success: number };
    tokens: { prompt: number; completion: number; episodes: number };
    learner: { trajectories: number; samples: number };
    policyVersion: number;
    eval: { episodes: number };
  };
  assert.equal(row.temperature, 0.7);
  assert.equal(row.train.episodes, 2);
  assert.equal(row.train.success, 1);
  const answered = requests.filter((r) => r.reply === 'text').length;
  assert.equal(row.tokens.episodes, 3);
  assert.equal(row.tokens.prompt, 100 * answered);
  assert.equal(row.tokens.completion, 10 * answered);
  const inferenceLog = readdirSync(path.join(run.runDir, 'logs')).find((f) => f.startsWith('inference-0'));
  const log = readFileSync(path.join(run.runDir, 'logs', inferenceLog!), 'utf8');
  assert.match(log, /chat request retry 1 .*HTTP 429/);
  assert.match(log, /chat request retry 1 .*no answer within 1500 ms/);

  // The external learner: the command saw the exported samples (one per step of the kept
  // trajectories), the adapter was loaded, and the eval ran on the new model name.
  const adapter = JSON.parse(
    readFileSync(path.join(run.runDir, 'sft', 'iter-001', 'output', 'adapter.json'), 'utf8'),
  ) as { version: string; samples: number; targets: string[] };
  assert.equal(adapter.version, '1');
  assert.equal(adapter.samples, row.learner.samples);
  assert.equal(row.learner.trajectories, 2);
  assert.ok(adapter.targets.includes('Thought: checked again, it holds.\nAction: ANSWER [$12]'));
  assert.ok(
    adapter.targets.includes('I think the price is somewhere on this page.'),
    'garbage is a step too',
  );
  const load = fake.requests.find((r) => r.path === '/v1/load_lora_adapter');
  assert.deepEqual(load?.body, {
    lora_name: 'tti-v1',
    lora_path: path.join(run.runDir, 'sft', 'iter-001', 'output'),
  });
  assert.equal(row.policyVersion, 1);
  assert.equal(row.eval.episodes, 1);
  assert.ok(
    requests.some((r) => r.body.model === 'tti-v1'),
    'the eval asked the new model',
  );
  const evalTemperatures = requests.filter((r) => r.body.model === 'tti-v1').map((r) => r.body.temperature);
  assert.deepEqual([...new Set(evalTemperatures)], [0.3], "the eval samples at the schedule's last entry");
  assert.ok(
    requests.findIndex((r) => r.body.model === 'tti-v1') >
      requests.findLastIndex((r) => r.body.model === 'gemma-fake'),
  );
  assert.ok(existsSync(path.join(run.runDir, 'served-model.json')));
});
