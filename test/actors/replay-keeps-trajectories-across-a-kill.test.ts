// The replay worker in a real run: successful trajectories pushed to it are kept on disk and are
// still there after it is killed with SIGKILL and restarted; failures and duplicates are not kept.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as zmq from 'zeromq';
import { encode, type StatusSnapshot, type Trajectory } from '../../src/actors/protocol.js';
import type { SupervisorInfo } from '../../src/run/run-dir.js';
import { RunFixture } from '../helpers/run-fixture.js';

const trajectory = (episodeId: string, reward: number): Trajectory => ({
  type: 'trajectory',
  episodeId,
  taskId: 't',
  site: 'shopping',
  reward,
  answer: 'ok',
  steps: [
    { observation: 'o', reply: 'Thought: t\nAction: ANSWER [ok]', action: 'stop [ok]', policyVersion: 0 },
  ],
});

const replay = (s: StatusSnapshot) => s.workers.find((w) => w.id === 'replay-0')!;

test('kept trajectories survive a SIGKILL of the replay worker', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  // No env worker: this test is the only sender of trajectories, so the counts are exact.
  await run.startDetached(['workers.env=0']);
  const info = JSON.parse(readFileSync(path.join(run.runDir, 'supervisor.json'), 'utf8')) as SupervisorInfo;
  const push = new zmq.Push({ linger: 1000 });
  push.connect(info.endpoints.trajectories);
  for (const [id, reward] of [
    ['e1', 1],
    ['e2', 0],
    ['e3', 1],
    ['e1', 1],
  ] as const) {
    await push.send(encode(trajectory(id, reward)));
  }
  const before = await run.waitFor((s) => replay(s).counters.received === 4, 10000, 'replay received 4');
  assert.equal(replay(before).counters.kept, 2);
  assert.equal(replay(before).counters.duplicates, 1);

  process.kill(replay(before).pid!, 'SIGKILL');
  const after = await run.waitFor(
    (s) => replay(s).restarts === 1 && replay(s).state === 'ready' && replay(s).counters.kept !== undefined,
    10000,
    'replay restarted',
  );
  assert.equal(replay(after).counters.kept, 2);
  // A duplicate sent after the restart is still recognised.
  await push.send(encode(trajectory('e3', 1)));
  const last = await run.waitFor(
    (s) => replay(s).counters.received === 1,
    10000,
    'replay received after restart',
  );
  assert.equal(replay(last).counters.kept, 2);
  assert.equal(replay(last).counters.duplicates, 1);
  push.close();
  await sleep(10);
});
