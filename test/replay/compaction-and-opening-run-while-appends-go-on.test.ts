// A large log opens in slices: what is read so far is served and appends go on meanwhile (placed
// after the older records). Compaction to `capacity` also runs while appends go on: the appended
// records survive it, and the log left behind holds exactly what is kept.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ReplayLog } from '../../src/replay/replay-log.js';
import { episodeIds, paddedTrajectory } from '../helpers/replay-records.js';

const RECORDS = 600;
const PAD = 40_000; // ≈24 MB of log: several slices and several copy steps

function bigLog(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-big-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { log } = ReplayLog.open(dir, RECORDS);
  for (let i = 0; i < RECORDS; i++) log.append(paddedTrajectory(`old-${i}`, PAD));
  log.close();
  return dir;
}

test('a log opened in the background serves what it read so far and takes appends meanwhile', async (t) => {
  const dir = bigLog(t);
  const { log, loaded } = ReplayLog.openInBackground(dir, RECORDS + 10);
  assert.equal(log.isLoading, true);
  assert.equal(log.append(paddedTrajectory('new-0')), true, 'an append while opening');
  let partial = -1;
  while (log.isLoading) {
    if (partial < 0 && log.size > 1 && log.size < RECORDS) partial = log.size;
    await nextTurn();
  }
  const report = await loaded;
  assert.ok(partial > 0, 'part of the log was served before it was whole');
  assert.equal(report.records, RECORDS);
  assert.equal(log.append(paddedTrajectory('new-1')), true);
  const ids = episodeIds(log.trajectories());
  assert.equal(ids.length, RECORDS + 2);
  assert.deepEqual(ids.slice(0, 2), ['old-0', 'old-1'], 'the older records come first');
  assert.deepEqual(ids.slice(-2), ['new-0', 'new-1']);
  log.close();
  const { log: again } = ReplayLog.open(dir, RECORDS + 10);
  assert.deepEqual(episodeIds(again.trajectories()).sort(), [...ids].sort());
  again.close();
});

test('compaction to capacity runs while appends go on and keeps exactly what is kept', async (t) => {
  const dir = bigLog(t);
  const capacity = 300; // ≈12 MB to copy: the copy yields to appends several times
  const { log } = ReplayLog.open(dir, capacity);
  const before = statSync(log.file).size;
  assert.equal(log.wantsCompaction, true, `${RECORDS} records in the file, ${capacity} kept`);
  const compacting = log.compact();
  const during: string[] = [];
  let settled = false;
  void compacting.finally(() => {
    settled = true;
  });
  for (let i = 0; !settled; i++) {
    assert.equal(log.append(paddedTrajectory(`during-${i}`, 100)), true);
    during.push(`during-${i}`);
    await nextTurn();
  }
  await compacting;
  assert.ok(during.length >= 2, 'appends went on during the compaction');
  assert.ok(statSync(log.file).size < before * 0.6, 'the file shrank');
  assert.equal(existsSync(`${log.file}.compact`), false, 'no temporary file is left');
  assert.equal(log.append(paddedTrajectory('after')), true);
  const kept = episodeIds(log.trajectories());
  log.close();
  const { log: again, report } = ReplayLog.open(dir, capacity);
  assert.equal(report.badRanges, 0);
  assert.deepEqual(episodeIds(again.trajectories()), kept);
  assert.ok(kept.includes('after') && kept.includes(during.at(-1) ?? ''));
  again.close();
});
