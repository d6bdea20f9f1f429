// The chaos command follows replay's log while replay writes it: each poll returns the whole
// records added since the last one, waits on a record still being written, never changes the
// file, and starts over when the log is cut and rewritten under it.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Trajectory } from '../../src/protocol/index.js';
import { ReplayLog, ReplayLogReader, readReplayLog } from '../../src/replay/replay-log.js';

const trajectory = (episodeId: string): Trajectory => ({
  type: 'trajectory',
  episodeId,
  taskId: '0',
  site: 'shopping',
  intent: 'a task',
  horizon: 5,
  iteration: 1,
  reward: 1,
  answer: 'ok',
  steps: [],
});

const ids = (ts: readonly Trajectory[]) => ts.map((t) => t.episodeId);

test('polls return new whole records, wait on a half-written one, and leave the file alone', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-reader-'));
  const file = path.join(dir, 'replay.log');
  const { log } = ReplayLog.open(dir, 100);
  const reader = ReplayLogReader.inDir(dir);
  assert.deepEqual(ids(reader.poll().trajectories), []);
  log.append(trajectory('a'));
  log.append(trajectory('b'));
  assert.deepEqual(ids(reader.poll().trajectories), ['a', 'b']);
  assert.deepEqual(ids(reader.poll().trajectories), []);

  // Half of the next record: as if replay were writing it right now.
  log.append(trajectory('c'));
  const whole = readFileSync(file);
  const cStart = sizeBefore(whole, 2);
  const record = whole.subarray(cStart);
  truncateSync(file, cStart + Math.floor(record.length / 2));
  const halfSize = statSync(file).size;
  assert.deepEqual(ids(reader.poll().trajectories), []);
  assert.equal(statSync(file).size, halfSize, 'the reader cut nothing');
  appendFileSync(file, record.subarray(halfSize - cStart));
  assert.deepEqual(ids(reader.poll().trajectories), ['c']);
  log.close();
  assert.deepEqual(ids(readReplayLog(dir)), ['a', 'b', 'c']);
});

test('a log rewritten shorter under the reader is read again from the start', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-reader-'));
  const { log } = ReplayLog.open(dir, 100);
  for (const id of ['a', 'b', 'c']) log.append(trajectory(id));
  log.close();
  const reader = ReplayLogReader.inDir(dir);
  assert.deepEqual(ids(reader.poll().trajectories), ['a', 'b', 'c']);
  writeFileSync(path.join(dir, 'replay.log'), '');
  const { log: fresh } = ReplayLog.open(dir, 100);
  fresh.append(trajectory('d'));
  fresh.close();
  const polled = reader.poll();
  assert.equal(polled.restarted, true);
  assert.deepEqual(ids(polled.trajectories), ['d']);
});

/** Byte offset where record `index` (0-based) starts (a 16-byte header: magic, length, two checksums). */
function sizeBefore(log: Buffer, index: number): number {
  let offset = 0;
  for (let i = 0; i < index; i++) offset += 16 + log.readUInt32LE(offset + 4);
  return offset;
}
