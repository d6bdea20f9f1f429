// An append is acknowledged only once the whole record is on disk. On a real full disk (a small
// tmpfs) the append throws ReplayWriteFailed, says it is out of space, and leaves nothing of the
// record in the log; once space returns, appends go on and a reopen finds exactly the
// acknowledged records. A trajectory over the record cap is refused at append with a clear error.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_RECORD_BYTES, RecordTooLarge } from '../../src/replay/record-format.js';
import { ReplayLog, ReplayWriteFailed } from '../../src/replay/replay-log.js';
import { episodeIds, paddedTrajectory } from '../helpers/replay-records.js';

test('on a full tmpfs an append fails, leaves the log whole, and appends go on once space returns', (t) => {
  const mount = mkdtempSync(path.join(tmpdir(), 'tti-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount]);
  t.after(() => {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });
  const dir = path.join(mount, 'replay');
  const { log } = ReplayLog.open(dir, 1000);
  const acknowledged: string[] = [];
  let failure: unknown = null;
  for (let i = 0; i < 100 && failure === null; i++) {
    const before = statSync(log.file).size;
    try {
      if (log.append(paddedTrajectory(`e${i}`, 10_000))) acknowledged.push(`e${i}`);
    } catch (error) {
      failure = error;
      assert.equal(statSync(log.file).size, before, 'nothing of the failed record is left');
    }
  }
  assert.ok(failure instanceof ReplayWriteFailed, `the disk filled: ${String(failure)}`);
  assert.equal(failure.outOfSpace, true);
  assert.equal(failure.code, 'ENOSPC');
  assert.match(failure.message, /replay\.log/);
  assert.ok(acknowledged.length >= 5, 'some appends fitted before the disk filled');
  assert.equal(log.has(`e${acknowledged.length}`), false, 'a failed append is not kept');

  execFileSync('mount', ['-o', 'remount,size=2m', mount]);
  assert.equal(log.append(paddedTrajectory(`e${acknowledged.length}`, 10_000)), true);
  acknowledged.push(`e${acknowledged.length}`);
  log.close();
  const { log: again, report } = ReplayLog.open(dir, 1000);
  assert.equal(report.badRanges, 0);
  assert.deepEqual(episodeIds(again.trajectories()), acknowledged);
  again.close();
});

test('a trajectory over the record cap is refused at append, naming its episode', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-cap-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { log } = ReplayLog.open(dir, 10);
  assert.throws(
    () => log.append(paddedTrajectory('huge', MAX_RECORD_BYTES + 1)),
    (error: Error) =>
      error instanceof RecordTooLarge && /huge/.test(error.message) && /cap/.test(error.message),
  );
  assert.equal(log.append(paddedTrajectory('small')), true, 'the log goes on');
  log.close();
  assert.deepEqual(episodeIds(ReplayLog.open(dir, 10).log.trajectories()), ['small']);
  writeFileSync(path.join(dir, 'unused'), '');
});
