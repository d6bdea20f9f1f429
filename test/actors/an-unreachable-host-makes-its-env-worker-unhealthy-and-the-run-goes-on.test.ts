// An env worker whose web host stops answering (the `host-down` fault closes its MiniArena for
// 10 s) is marked unhealthy and takes no tasks (an episode whose start page it could not reach it
// gives back, for the other worker); status says the run has fewer hosts; once the host answers
// again the worker is back, without a restart, and the iteration completes with every episode.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { renderStatusTable } from '../../src/cli/console-view.js';
import type { StatusSnapshot } from '../../src/protocol/index.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const env = (s: StatusSnapshot, id: string) => s.workers.find((w) => w.id === id)!;
const ROLLOUT = 8;

test('an unreachable host makes its env worker unhealthy, its tasks go elsewhere, and the run goes on', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const tasks = writeAnyAnswerTasks(run.runDir);
  // Iterations enough that the run outlasts the outage (any-answer episodes are short).
  await run.startDetached([...tinyRun(tasks, 20), 'workers.env=2', `rollout_size=${ROLLOUT}`]);

  await run.inject('env-0', 'host-down');
  const down = await run.waitFor((s) => env(s, 'env-0').state === 'unhealthy', 30_000, 'env-0 unhealthy');
  assert.match(env(down, 'env-0').labels.host ?? '', /^unreachable since .*ECONNREFUSED/);
  assert.equal(env(down, 'env-0').restarts, 0, 'an unreachable host is not a crash');
  // The table of that very snapshot says so (the outage may be over by the time a CLI starts on a
  // loaded machine); `tti-run status` prints the same table.
  assert.match(renderStatusTable(down, { iterations: 20 }), /hosts\s+1 of 2 answering; env-0: unreachable/);
  const table = await runCli(['status', '--run-dir', run.runDir]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /worker\s+role\s+host\s+state[\s\S]*env-0/);
  const othersBefore = env(down, 'env-1').counters.episodes ?? 0;

  // The other worker goes on; env-0 is back once its host answers, and takes tasks again.
  const back = await run.waitFor(
    (s) => env(s, 'env-0').state === 'ready' && env(s, 'env-0').labels.host === 'ok',
    60_000,
    'env-0 healthy again',
  );
  assert.ok((env(back, 'env-1').counters.episodes ?? 0) > othersBefore, 'env-1 ran episodes meanwhile');
  const mineBack = env(back, 'env-0').counters.episodes ?? 0;
  const later = await run.waitFor(
    (s) => (env(s, 'env-0').counters.episodes ?? 0) > mineBack && s.iteration >= 2,
    90_000,
    'env-0 runs episodes again and an iteration completes',
  );
  assert.equal(env(later, 'env-0').restarts, 0);
  assert.equal((await runCli(['stop', '--run-dir', run.runDir])).code, 0);
  assert.deepEqual(await run.waitNoProcesses(30_000), []);

  // Every iteration that completed ran all its episodes, and env-0 ran none while its host was down.
  const rows = readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { train: { episodes: number } });
  assert.ok(rows.length >= 1);
  for (const row of rows) assert.equal(row.train.episodes, ROLLOUT);
  const lines = readFileSync(path.join(run.runDir, 'logs', 'env-0.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { message: string; timestamp: string });
  const from = lines.find((l) => l.message.startsWith('web host unreachable'))?.timestamp;
  const to = lines.find((l) => l.message.startsWith('web host answers again'))?.timestamp;
  assert.ok(from && to, 'env-0 saw its host go and come back');
  const whileDown = lines.filter(
    (l) => l.timestamp > from && l.timestamp < to && /^episode \S+ \(task/.test(l.message),
  );
  assert.deepEqual(whileDown, [], 'env-0 ran no episode while its host was down');
});
