// Status during a training run: the phase and its progress, replay's seen/kept, episodes done and
// successful, and the tfjs backend the policy runs on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

test('status --json adds phase, replay, episodes and backend while a run collects', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  await run.startDetached(['rollout_size=50', 'horizon_schedule=[3]', 'env.record_episodes=false']);
  const status = await run.waitFor(
    (s) => s.backend !== null && s.phase === 'collect' && s.episodes.done >= 1,
    120000,
    'an episode collected',
  );
  assert.ok(['gpu', 'node', 'wasm', 'cpu'].includes(status.backend!));
  assert.deepEqual(Object.keys(status.replay).sort(), ['kept', 'seen']);
  assert.ok(status.replay.seen >= 1);
  assert.ok(status.episodes.success <= status.episodes.done);
  assert.equal(status.phaseProgress.total, 50);
  assert.equal(status.iterations, 10);
  const stopped = await runCli(['stop', '--run-dir', run.runDir]);
  assert.equal(stopped.code, 0, stopped.stderr);
});
