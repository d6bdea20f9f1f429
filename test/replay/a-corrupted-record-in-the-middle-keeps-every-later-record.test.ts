// Recovery keeps every whole, valid record: a record damaged in the middle of the log (a flipped
// payload byte, a torn header, garbage written over a record's start, bytes inserted between two
// records) costs only its own bytes. They move to a side file, the count is reported, and the log
// is rewritten without them, so the next open finds it whole. A log of the layout before the
// record magic is still read, once, and rewritten.
import assert from 'node:assert/strict';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { Packr } from 'msgpackr';
import { ReplayLog } from '../../src/replay/replay-log.js';
import { episodeIds, paddedTrajectory } from '../helpers/replay-records.js';

const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

function writtenLog(): { dir: string; file: string; starts: number[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-resync-'));
  const { log } = ReplayLog.open(dir, 100);
  for (const id of IDS) log.append(paddedTrajectory(id, 200));
  log.close();
  const file = path.join(dir, 'replay.log');
  const bytes = readFileSync(file);
  const starts: number[] = [];
  for (let at = 0; at < bytes.byteLength; at += 16 + bytes.readUInt32LE(at + 4)) starts.push(at);
  return { dir, file, starts };
}

function overwrite(file: string, at: number, data: Buffer): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, data, 0, data.byteLength, at);
  closeSync(fd);
}

const damages: [string, (file: string, starts: number[]) => void][] = [
  ['a flipped payload byte', (file, s) => overwrite(file, (s[2] ?? 0) + 40, Buffer.from('Z'))],
  [
    'a header whose length says 4 GiB',
    (file, s) => overwrite(file, (s[2] ?? 0) + 4, Buffer.from([255, 255, 255, 255])),
  ],
  ['garbage over the magic', (file, s) => overwrite(file, s[2] ?? 0, Buffer.from('GARBAGE!'))],
  [
    'bytes inserted between two records',
    (file, s) => {
      const bytes = readFileSync(file);
      const at = s[3] ?? 0;
      writeFileSync(
        file,
        Buffer.concat([bytes.subarray(0, at), Buffer.from('TTIR not a record'), bytes.subarray(at)]),
      );
    },
  ],
];

for (const [what, damage] of damages) {
  test(`${what} in the middle costs only its own bytes; every later record is kept`, (t) => {
    const { dir, file, starts } = writtenLog();
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    damage(file, starts);
    const { log, report } = ReplayLog.open(dir, 100);
    const lost = what.startsWith('bytes inserted') ? [] : ['c'];
    assert.deepEqual(
      episodeIds(log.trajectories()),
      IDS.filter((id) => !lost.includes(id)),
    );
    assert.equal(report.badRanges, 1, report.reasons.join('; '));
    assert.ok(report.badBytes > 0);
    assert.equal(report.sideFile, `${file}.bad`);
    assert.match(readFileSync(`${file}.bad`, 'latin1'), /^# replay\.log bytes \d+-\d+: /);
    // Appends go on after the open, and the rewrite removed the bad bytes.
    assert.equal(log.wantsCompaction, true, 'the log is rewritten without the bad bytes');
    return log.compact().then(() => {
      assert.equal(log.append(paddedTrajectory('h')), true);
      log.close();
      const { log: again, report: second } = ReplayLog.open(dir, 100);
      assert.equal(second.badRanges, 0, 'the next open finds the log whole');
      assert.deepEqual(episodeIds(again.trajectories()), [...IDS.filter((id) => !lost.includes(id)), 'h']);
      again.close();
    });
  });
}

test('a log of the layout before the record magic is read and rewritten once', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-legacy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const packr = new Packr({ useRecords: false, mapsAsObjects: true });
  const records = ['a', 'b'].map((id) => {
    const payload = packr.pack(paddedTrajectory(id));
    const header = Buffer.alloc(8);
    header.writeUInt32LE(payload.byteLength, 0);
    header.writeUInt32LE(crc32(payload), 4);
    return Buffer.concat([header, payload]);
  });
  writeFileSync(path.join(dir, 'replay.log'), Buffer.concat([...records, Buffer.from('torn')]));
  const { log, report } = ReplayLog.open(dir, 100);
  assert.equal(report.migrated, true);
  assert.deepEqual(episodeIds(log.trajectories()), ['a', 'b']);
  assert.equal(existsSync(path.join(dir, 'replay.log.bad')), true, 'the torn tail is kept aside');
  log.close();
  const { log: again, report: second } = ReplayLog.open(dir, 100);
  assert.equal(second.migrated, false);
  assert.deepEqual(episodeIds(again.trajectories()), ['a', 'b']);
  again.close();
});
