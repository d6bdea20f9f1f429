// A chat policy is its served model: `tti-run eval --config FILE` evaluates it with no checkpoint to
// choose, while a trainable policy still needs --checkpoint, --run-dir or --untrained. The chat model
// is a FAKE OpenAI-compatible server (the remote model cannot run here).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { runCli } from '../helpers/run-fixture.js';

test('eval of the trainable policy without a checkpoint, a run or --untrained says which to give', async () => {
  const result = await runCli(['eval', '--json']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /give exactly one of --checkpoint PATH, --run-dir DIR or --untrained/);
});

test('eval --config of a chat model (fake server) runs with no checkpoint and names the model', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-eval-chat-'));
  const fake = await FakeOpenAiServer.start([]);
  t.after(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const tasks = writeAnyAnswerTasks(dir, 1);
  const config = path.join(dir, 'chat.yaml');
  writeFileSync(
    config,
    [
      'policy_lm: gemma-fake',
      'chat:',
      `  base_url: ${fake.baseUrl}`,
      'tasks:',
      `  train: ${tasks}`,
      `  test: ${tasks}`,
      'eval_horizon: 2',
      'workers:',
      '  env: 1',
      'env:',
      '  record_episodes: false',
    ].join('\n'),
  );
  const result = await runCli(
    ['eval', '--config', config, '--json', '--out-dir', path.join(dir, 'out')],
    120000,
  );
  assert.equal(result.code, 0, result.stderr.slice(-2000));
  const report = JSON.parse(result.stdout) as { episodes: number; policy: string };
  assert.equal(report.episodes, 1);
  assert.equal(report.policy, 'gemma-fake');
  assert.ok(fake.completions.length >= 1, 'the served model was asked');
});
