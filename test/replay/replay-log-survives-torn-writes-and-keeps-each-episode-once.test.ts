import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Trajectory } from '../../src/protocol/index.js';
import { isKept } from '../../src/replay/filter.js';
import { ReplayLog } from '../../src/replay/replay-log.js';

const trajectory = (
  episodeId: string,
  site = 'shopping',
  reward = 1,
  answer: string | null = 'ok',
): Trajectory => ({
  type: 'trajectory',
  episodeId,
  taskId: `task-${episodeId}`,
  site,
  intent: 'a task',
  horizon: 10,
  iteration: 1,
  reward,
  answer,
  steps: [
    {
      observation: `[1] link 'Item ${episodeId}'`,
      url: 'http://127.0.0.1/',
      nodes: { ids: [1], roles: ['link'], names: [`Item ${episodeId}`], depths: [1], inViewport: [1] },
      note: null,
      reply: 'Thought: done\nAction: ANSWER [ok]',
      action: 'stop [ok]',
      policyVersion: 3,
    },
  ],
});

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'tti-replay-'));

test('appended trajectories are there, in order, after reopening', () => {
  const dir = freshDir();
  const { log } = ReplayLog.open(dir, 100);
  for (const id of ['a', 'b', 'c']) assert.equal(log.append(trajectory(id)), true);
  log.close();
  const { log: again, report } = ReplayLog.open(dir, 100);
  assert.deepEqual(report, {
    records: 3,
    badRanges: 0,
    badBytes: 0,
    reasons: [],
    sideFile: null,
    migrated: false,
  });
  assert.deepEqual(
    again.trajectories().map((t) => t.episodeId),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(again.trajectories()[1], trajectory('b'));
  again.close();
});

test('a torn last record is cut on reopen; the records before it and later appends survive', () => {
  const dir = freshDir();
  const { log } = ReplayLog.open(dir, 100);
  for (const id of ['a', 'b', 'c']) log.append(trajectory(id));
  log.close();
  const file = path.join(dir, 'replay.log');
  truncateSync(file, statSync(file).size - 5);
  const { log: reopened, report } = ReplayLog.open(dir, 100);
  assert.equal(report.records, 2);
  assert.equal(report.badRanges, 1);
  assert.ok(report.badBytes > 0);
  assert.match(report.reasons[0] ?? '', /cut short/);
  assert.equal(report.sideFile, `${file}.bad`, 'the torn bytes are kept aside');
  assert.equal(reopened.append(trajectory('d')), true);
  reopened.close();
  const { log: last, report: lastReport } = ReplayLog.open(dir, 100);
  assert.equal(lastReport.badRanges, 0);
  assert.deepEqual(
    last.trajectories().map((t) => t.episodeId),
    ['a', 'b', 'd'],
  );
  last.close();
});

test('a corrupted record fails its checksum and only its own bytes are lost', () => {
  const dir = freshDir();
  const { log } = ReplayLog.open(dir, 100);
  for (const id of ['a', 'b', 'c']) log.append(trajectory(id));
  log.close();
  const file = path.join(dir, 'replay.log');
  const bytes = readFileSync(file);
  const second = bytes.indexOf(Buffer.from('Item b'));
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.from('X'), 0, 1, second);
  closeSync(fd);
  const { log: reopened, report } = ReplayLog.open(dir, 100);
  assert.deepEqual(
    reopened.trajectories().map((t) => t.episodeId),
    ['a', 'c'],
  );
  assert.match(report.reasons[0] ?? '', /checksum/);
  reopened.close();
});

test('an episode is kept once, even when it arrives twice or after a reopen', () => {
  const dir = freshDir();
  const { log } = ReplayLog.open(dir, 100);
  assert.equal(log.append(trajectory('a')), true);
  assert.equal(log.append(trajectory('a')), false);
  log.close();
  const { log: again } = ReplayLog.open(dir, 100);
  assert.equal(again.append(trajectory('a')), false);
  assert.equal(again.size, 1);
  again.close();
});

test('over capacity the oldest go; compaction keeps exactly what is kept', async () => {
  const dir = freshDir();
  const { log } = ReplayLog.open(dir, 3);
  for (const id of ['a', 'b', 'c', 'd', 'e']) log.append(trajectory(id));
  assert.deepEqual(
    log.trajectories().map((t) => t.episodeId),
    ['c', 'd', 'e'],
  );
  await log.compact();
  log.append(trajectory('f'));
  log.close();
  const { log: again, report } = ReplayLog.open(dir, 3);
  assert.equal(report.records, 4, 'the compacted log holds c, d, e and then f');
  assert.deepEqual(
    again.trajectories().map((t) => t.episodeId),
    ['d', 'e', 'f'],
  );
  again.close();
});

test("TTI's filter keeps positive rewards whose answer is not N/A", () => {
  assert.equal(isKept(trajectory('a', 'shopping', 1, 'the blue one')), true);
  assert.equal(isKept(trajectory('b', 'shopping', 0, 'the blue one')), false);
  assert.equal(isKept(trajectory('c', 'shopping', 1, ' n/a ')), false);
  assert.equal(isKept(trajectory('d', 'shopping', 1, null)), true);
});
