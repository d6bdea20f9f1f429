// A real full disk: the run directory is on a small tmpfs. Once collection has kept a success, the
// test fills the tmpfs; replay's next write fails, collection pauses (no new episode is handed out)
// and status says why ("replay: disk full at …"). Then the tmpfs is grown: the run goes on by
// itself, finishes, and every success replay ever held (acknowledged) is in its log once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StatusSnapshot } from '../../src/protocol/index.js';
import { ReplayLogReader, readReplayLog } from '../../src/replay/index.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { RunFixture, runCli } from '../helpers/run-fixture.js';

const replay = (s: StatusSnapshot) => s.workers.find((w) => w.role === 'replay');

/** Writes a filler file until the filesystem refuses more (ENOSPC). */
function fill(dir: string): void {
  const file = path.join(dir, 'filler');
  const { bavail, bsize } = statfsSync(dir);
  try {
    appendFileSync(file, Buffer.alloc(Number(bavail) * Number(bsize)));
    for (;;) appendFileSync(file, Buffer.alloc(4096));
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  }
}

test('a full disk pauses collection, loses no acknowledged success, and the run finishes once space returns', async (t) => {
  const mount = mkdtempSync(path.join(tmpdir(), 'tti-full-run-'));
  const outside = mkdtempSync(path.join(tmpdir(), 'tti-full-tasks-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mount]);
  const runDir = path.join(mount, 'run');
  mkdirSync(runDir);
  const run = RunFixture.at(runDir);
  t.after(async () => {
    await run.cleanup();
    if (process.env.TTI_KEEP_RUNS) return;
    execFileSync('umount', ['-l', mount]);
    rmSync(mount, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const tasks = writeAnyAnswerTasks(outside);
  await run.startForeground(
    [
      ...tinyRun(tasks, 1),
      'rollout_size=16',
      'env.record_episodes=false',
      'env.screenshot=false',
      // this test is about the disk: a learner slowed by a busy machine is not killed as hung
      'supervisor.heartbeat_timeout_ms=30000',
    ],
    false,
  );

  // Everything replay holds while the run goes on: each record whose append was acknowledged.
  const reader = ReplayLogReader.inDir(path.join(runDir, 'replay'));
  const held = new Set<string>();
  const follow = setInterval(() => {
    for (const trajectory of reader.poll().trajectories) held.add(trajectory.episodeId);
  }, 100);
  t.after(() => clearInterval(follow));

  await run.waitFor((s) => (replay(s)?.counters.kept ?? 0) >= 1, 120_000, 'a success kept');
  fill(mount);
  const paused = await run.waitFor(
    (s) => replay(s)?.labels.paused !== undefined,
    60_000,
    'replay says it is paused',
  );
  const why = replay(paused)?.labels.paused ?? '';
  assert.match(why, /^replay: disk full at \d{4}-\d\d-\d\dT[\d:.]+Z \(ENOSPC writing replay\/replay\.log\)$/);
  assert.ok((replay(paused)?.counters.writeFailures ?? 0) >= 1, 'a write really failed');
  // Paused: no new episode is handed out (the one env worker may finish the episode it holds).
  await sleep(3000);
  const later = await run.status();
  assert.ok(later !== null);
  assert.ok(
    later.phaseProgress.done <= paused.phaseProgress.done + 1,
    `collection paused: ${paused.phaseProgress.done} then ${later.phaseProgress.done} episodes`,
  );
  assert.equal(replay(later)?.labels.paused, why, 'replay still says why');
  assert.equal(later.paused, why, 'and so does the run');
  const shown = await runCli(['status', '--run-dir', runDir]);
  assert.match(
    shown.stdout,
    /^paused {4}replay: disk full at .*ENOSPC writing replay\/replay\.log/m,
    shown.stderr,
  );

  execFileSync('mount', ['-o', 'remount,size=512m', mount]);
  const code = await run.foregroundExit(120_000).catch((error: Error) => {
    throw new Error(`${error.message}:\n${run.foregroundOutput.slice(-3000)}`);
  });
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);
  clearInterval(follow);
  for (const trajectory of reader.poll().trajectories) held.add(trajectory.episodeId);

  const final = readReplayLog(path.join(runDir, 'replay')).map((tr) => tr.episodeId);
  assert.equal(new Set(final).size, final.length, 'each success once');
  const lost = [...held].filter((id) => !final.includes(id));
  assert.deepEqual(lost, [], 'every acknowledged success is in replay');
  assert.ok(final.length >= 2, `successes before and after the full disk: ${final.length}`);
  assert.match(run.foregroundOutput, /collection paused: replay: disk full at/);
});
