// kill -9 of the supervisor in the middle of iteration 2, then `train --resume`: the run goes on
// from the last completed iteration with the same task stream (RNG state), the same weights
// (learner and inference start from the latest checkpoint), the replay log as it was, and
// metrics.jsonl keeps one row per iteration (row 1 untouched, none twice, none missing).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readReplayLog } from '../../src/replay/replay-log.js';
import { SeededRandom } from '../../src/util/random.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const ROLLOUT = 4;
const TASKS = 4;

function savedState(
  runDir: string,
): { iteration: number; policyVersion: number; inProgress?: number } | null {
  try {
    return JSON.parse(readFileSync(path.join(runDir, 'state.json'), 'utf8'));
  } catch {
    return null;
  }
}

function logOf(runDir: string, name: string): string {
  return readFileSync(path.join(runDir, 'logs', `${name}.jsonl`), 'utf8');
}

test('a run resumed after kill -9 of its supervisor continues with the same tasks, weights, replay and metrics', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const tasks = writeAnyAnswerTasks(run.runDir, TASKS);
  const first = await run.startDetached(tinyRun(tasks, 2));

  // Wait until iteration 1 is saved and iteration 2 is collecting.
  const deadline = Date.now() + 180_000;
  while ((savedState(run.runDir)?.inProgress ?? 0) < 2 && Date.now() < deadline) await sleep(100);
  const before = savedState(run.runDir);
  assert.equal(before?.iteration, 1, 'iteration 1 completed');
  const row1 = readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8');
  const keptBefore = readReplayLog(path.join(run.runDir, 'replay')).map((t) => t.episodeId);
  assert.equal(first.state, 'running');
  process.kill(run.supervisorPid(), 'SIGKILL');

  const resumed = await runCli(['train', '--resume', '--run-dir', run.runDir, '--detach'], 90_000);
  assert.equal(resumed.code, 0, resumed.stderr);
  const until = Date.now() + 240_000;
  while (savedState(run.runDir) && (savedState(run.runDir) as { state?: string }).state !== 'stopped') {
    assert.ok(Date.now() < until, 'the resumed run finishes');
    await sleep(200);
  }
  assert.deepEqual(await run.waitNoProcesses(30_000), []);

  // metrics.jsonl: row 1 as it was, then row 2, once.
  const rows = readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8').trim().split('\n');
  assert.equal(rows.length, 2);
  assert.equal(`${rows[0]}\n`, row1);
  assert.equal((JSON.parse(rows[1]!) as { iteration: number }).iteration, 2);
  const after = savedState(run.runDir);
  assert.equal(after?.iteration, 2);
  assert.ok((after?.policyVersion ?? 0) >= (before?.policyVersion ?? 0));

  // Replay kept everything it had, and the resumed supervisor said where it continued from.
  const keptAfter = new Set(readReplayLog(path.join(run.runDir, 'replay')).map((t) => t.episodeId));
  for (const id of keptBefore) assert.ok(keptAfter.has(id), `${id} is still in replay`);
  assert.match(logOf(run.runDir, 'supervisor'), /resuming after iteration 1, policy version/);

  // The same weights: the restarted learner and inference load the checkpoint iteration 1 wrote.
  const version = before?.policyVersion ?? 0;
  if (version > 0) {
    const learner = logOf(run.runDir, 'learner-0');
    assert.match(learner, new RegExp(`resumed from checkpoint v${version}\\b`));
    assert.match(logOf(run.runDir, 'inference-0'), new RegExp(`policy v${version} from`));
  }

  // The same task stream: the resumed iteration 2 draws the tasks an uninterrupted run would have.
  const random = new SeededRandom(0);
  const draws = Array.from({ length: 2 * ROLLOUT }, () => String(Math.floor(random.next() * TASKS)));
  const resumedRunId = /run (\S+): supervisor pid/.exec(
    logOf(run.runDir, 'supervisor')
      .split('\n')
      .filter((l) => l.includes('supervisor pid'))
      .at(-1) ?? '',
  )?.[1];
  assert.ok(resumedRunId);
  const resumedEpisodes = readdirSync(path.join(run.runDir, 'episodes')).filter((e) =>
    e.startsWith(`${resumedRunId}-i2-c`),
  );
  assert.equal(resumedEpisodes.length, ROLLOUT);
  for (const trajectory of readReplayLog(path.join(run.runDir, 'replay'))) {
    const k: string | undefined = new RegExp(`^${resumedRunId}-i2-c(\\d+)$`).exec(trajectory.episodeId)?.[1];
    if (k !== undefined)
      assert.equal(trajectory.taskId, draws[ROLLOUT + Number(k) - 1], trajectory.episodeId);
  }
});
