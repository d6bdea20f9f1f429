// An env worker whose web host stops answering (the `host-down` fault closes its MiniArena for
// 15 s) is marked unhealthy and takes no tasks (an episode whose start page it could not reach it
// gives back, for the other worker); status says the run has fewer hosts; once the host answers
// again the worker is back, without a restart, and the iteration completes with every episode.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StatusSnapshot } from '../../src/actors/protocol.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const env = (s: StatusSnapshot, id: string) => s.workers.find((w) => w.id === id)!;
const ROLLOUT = 8;

test('an unreachable host makes its env worker unhealthy, its tasks go elsewhere, and the run goes on', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const tasks = writeAnyAnswerTasks(run.runDir);
  await run.startDetached([...tinyRun(tasks, 1), 'workers.env=2', `rollout_size=${ROLLOUT}`]);

  const injected = await runCli([
    'inject',
    '--run-dir',
    run.runDir,
    '--worker',
    'env-0',
    '--fault',
    'host-down',
  ]);
  assert.equal(injected.code, 0, injected.stderr);
  const down = await run.waitFor((s) => env(s, 'env-0').state === 'unhealthy', 30_000, 'env-0 unhealthy');
  assert.match(env(down, 'env-0').labels.host ?? '', /^unreachable since .*ECONNREFUSED/);
  const table = await runCli(['status', '--run-dir', run.runDir]);
  assert.match(table.stdout, /hosts\s+1 of 2 answering; env-0: unreachable/);

  assert.equal(env(down, 'env-0').restarts, 0, 'an unreachable host is not a crash');

  const until = Date.now() + 180_000;
  const state = () =>
    JSON.parse(readFileSync(path.join(run.runDir, 'state.json'), 'utf8')) as { state: string };
  while (state().state !== 'stopped') {
    assert.ok(Date.now() < until, 'the run finishes');
    await sleep(200);
  }
  const row = JSON.parse(readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8').trim()) as {
    train: { episodes: number };
  };
  assert.equal(row.train.episodes, ROLLOUT, 'every episode of the iteration was run');
  // env-0 probed with backoff until its host answered again (the run may end before status shows it).
  const log = (name: string) => readFileSync(path.join(run.runDir, 'logs', `${name}.jsonl`), 'utf8');
  const lines = log('env-0')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { message: string; timestamp: string });
  const from = lines.find((l) => l.message.startsWith('web host unreachable'))?.timestamp;
  const to = lines.find((l) => l.message.startsWith('web host answers again'))?.timestamp;
  assert.ok(from && to, 'env-0 saw its host go and come back');
  const episodesWhileDown = lines.filter(
    (l) => l.timestamp > from && l.timestamp < to && /^episode \S+ \(task/.test(l.message),
  );
  assert.deepEqual(episodesWhileDown, [], 'env-0 ran no episode while its host was down');
  assert.deepEqual(await run.waitNoProcesses(10_000), []);
});
