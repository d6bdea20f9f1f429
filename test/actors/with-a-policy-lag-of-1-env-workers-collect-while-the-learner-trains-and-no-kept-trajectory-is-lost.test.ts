// The asynchronous loop (rollout.max_policy_lag: 1) end to end on MiniArena, every role a real
// process: iteration 2's episodes are queued before iteration 1 trains, and at least one of them
// ends while the learner is still training iteration 1 (by the env worker's and the learner's own
// log clocks); every row's batch is within one version; the eval of the last iteration runs under
// its version; every trajectory the env worker reported kept is in replay's durable log, and every
// collection episode reached the loop. A successful trajectory is put in replay's log first so the
// learner has something to train on, and min_updates makes each pass long enough to watch.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { MetricsRow } from '../../src/loop/index.js';
import { ReplayLog, readReplayLog } from '../../src/replay/index.js';
import { seededSuccess } from '../helpers/kept-trajectory.js';
import { RunFixture } from '../helpers/run-fixture.js';

interface LogLine {
  message: string;
  timestamp: string;
}

const logLines = (runDir: string, prefix: string): LogLine[] => {
  const file = readdirSync(path.join(runDir, 'logs')).find((f) => f.startsWith(prefix));
  assert.ok(file, `no log of ${prefix}`);
  return readFileSync(path.join(runDir, 'logs', file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as LogLine);
};

test('with a policy lag of 1, env workers collect while the learner trains, and no kept trajectory is lost', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const { log } = ReplayLog.open(path.join(run.runDir, 'replay'), 1000);
  log.append(seededSuccess());
  log.close();

  await run.startForeground(
    [
      'iterations=2',
      'rollout_size=3',
      'horizon_schedule=[4]',
      'eval_every=2',
      'eval_tasks=2',
      'eval_horizon=4',
      'min_updates=400',
      'rollout.max_policy_lag=1',
      'env.record_episodes=false',
    ],
    false,
  );
  const code = await run.foregroundExit(400000);
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);

  const rows = readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as MetricsRow);
  assert.deepEqual(
    rows.map((r) => [r.iteration, r.policyVersion, r.train.episodes, r.eval?.episodes ?? null]),
    [
      [1, 1, 3, null],
      [2, 2, 3, 2],
    ],
  );
  for (const row of rows)
    assert.ok(
      row.lag !== undefined && row.lag.bound === 1 && row.lag.max <= 1 && row.lag.stale === 0,
      JSON.stringify(row.lag),
    );

  // Collection went on during training: an iteration-2 episode ended after iteration 1's batch was
  // complete and before the learner finished training on it.
  const ended = logLines(run.runDir, 'env-0')
    .map((l) => ({
      at: Date.parse(l.timestamp),
      m: /^episode \S+-i(\d+)-c\d+ .*\(task .*, train\): .* after \d+ steps/.exec(l.message),
      kept: l.message.includes(', kept'),
      message: l.message,
    }))
    .filter((e) => e.m !== null);
  const iterationOf = (e: (typeof ended)[number]) => Number(e.m![1]);
  const batch1 = Math.max(...ended.filter((e) => iterationOf(e) === 1).map((e) => e.at));
  const trained1 = logLines(run.runDir, 'learner-0').find((l) => /^iteration 1: .* v1$/.test(l.message));
  assert.ok(trained1, 'the learner trained iteration 1');
  const trainedAt = Date.parse(trained1.timestamp);
  assert.ok(
    ended.some((e) => iterationOf(e) === 2 && e.at > batch1 && e.at < trainedAt),
    `no iteration-2 episode ended between iteration 1's batch (${batch1}) and its training's end (${trainedAt})`,
  );

  // Nothing acknowledged is lost: every collection episode reached the loop, and every trajectory
  // the env worker reported kept is in replay's durable log.
  assert.equal(rows.at(-1)?.replay.seen, 6);
  const stored = new Set(readReplayLog(path.join(run.runDir, 'replay')).map((r) => r.episodeId));
  const keptIds = ended.filter((e) => e.kept).map((e) => /^episode (\S+)/.exec(e.message)![1]!);
  for (const id of keptIds) assert.ok(stored.has(id), `${id} was kept but is not in replay's log`);
  assert.equal(
    stored.size - 1,
    rows.reduce((n, r) => n + r.train.kept, 0),
  );
});
