// A run that starts on a 1 GiB replay log: replay opens it in the background, so it heartbeats
// from its first second (the supervisor never kills it as hung: no restart) and answers a sample
// request with what it has read within 5 s of registering; it reads the whole log in the end and
// then compacts it to `capacity`. The log is generated fast, in a temp dir, and removed after.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as zmq from 'zeromq';
import { decode, encode, Inbound, type StatusSnapshot } from '../../src/protocol/index.js';
import { encodeRecord } from '../../src/replay/record-format.js';
import type { SupervisorInfo } from '../../src/run/run-dir.js';
import { RunDir, readSupervisorInfo } from '../../src/run/run-dir.js';
import { writeAll } from '../../src/util/durable.js';
import { paddedTrajectory } from '../helpers/replay-records.js';
import { RunFixture } from '../helpers/run-fixture.js';

const GIB = 1024 * 1024 * 1024;
const PAD = 256 * 1024;
const CAPACITY = 1000;

/** ≈1 GiB of valid records, written in large batches. */
function writeLog(file: string): number {
  const fd = openSync(file, 'w');
  let bytes = 0;
  let records = 0;
  try {
    while (bytes < GIB) {
      const batch: Buffer[] = [];
      for (let i = 0; i < 64; i++) batch.push(encodeRecord(paddedTrajectory(`big-${records++}`, PAD)));
      const data = Buffer.concat(batch);
      writeAll(fd, data, bytes);
      bytes += data.byteLength;
    }
  } finally {
    closeSync(fd);
  }
  return records;
}

const replay = (s: StatusSnapshot) => s.workers.find((w) => w.role === 'replay');

test('a 1 GiB replay log restarts with heartbeats alive and serves samples within 5 s', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const dir = path.join(run.runDir, 'replay');
  mkdirSync(dir, { recursive: true });
  const records = writeLog(path.join(dir, 'replay.log'));
  assert.ok(statSync(path.join(dir, 'replay.log')).size >= GIB);

  await run.startDetached(['workers.env=0', `capacity=${CAPACITY}`]);
  const info: SupervisorInfo = readSupervisorInfo(new RunDir(run.runDir));
  const learner = new zmq.Dealer({ linger: 0, receiveTimeout: 5000 });
  t.after(() => learner.close());
  learner.connect(info.endpoints.samples);
  await learner.send(encode({ type: 'sample_request', maxTrajectories: 8, seed: 1 }));
  const [frames] = [await learner.receive()];
  const reply = decode(Inbound.samplesToLearner, frames);
  assert.ok(reply.ok, 'a sample batch');
  assert.ok(reply.value.message.trajectories.length > 0, 'samples of what replay has read so far');

  const loaded = await run.waitFor(
    (s) => replay(s)?.counters.loading === 0 && replay(s)?.counters.kept === CAPACITY,
    240_000,
    'replay read the whole log',
  );
  assert.equal(replay(loaded)?.restarts, 0, 'never killed as hung');
  assert.equal(replay(loaded)?.counters.badRanges, 0);
  assert.ok(records > CAPACITY);
  // Then it compacts the log to what it keeps, in the background too.
  const compacted = Date.now() + 240_000;
  while (statSync(path.join(dir, 'replay.log')).size >= GIB && Date.now() < compacted)
    await new Promise((resolve) => setTimeout(resolve, 500));
  assert.ok(statSync(path.join(dir, 'replay.log')).size < GIB / 2, 'compacted to capacity');
  const after = await run.status();
  assert.equal(after && replay(after)?.restarts, 0);
});
