// After a corrupted checkpoint falls back to the one before, the learner trains that version again
// and saves it: the save works (the corrupted folder is moved aside, kept for a look), and the next
// load takes the new one. A save that a full disk (a real tmpfs) cannot hold throws and leaves no
// half-written folder behind; once space returns the same save works.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CheckpointStore } from '../../src/model/checkpoint-store.js';

const files = (v: number, bytes = 16) =>
  new Map([
    ['weights.bin', Buffer.alloc(bytes, v)],
    ['optimizer.bin', Buffer.from(`adam state ${v}`)],
  ]);

test('v2 corrupted, fallback to v1, then saving v2 again works and loads', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-ckpt-again-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = new CheckpointStore(dir, 3);
  store.save(1, files(1), { iteration: 1 });
  store.save(2, files(2), { iteration: 2 });
  writeFileSync(path.join(dir, 'v00000002', 'weights.bin'), 'torn');
  const fallback = store.loadLatest();
  assert.equal(fallback?.manifest.policyVersion, 1);
  assert.equal(fallback?.skipped[0]?.policyVersion, 2);

  store.save(2, files(7), { iteration: 2 });
  const loaded = store.loadLatest();
  assert.equal(loaded?.manifest.policyVersion, 2);
  assert.deepEqual(loaded?.skipped, []);
  assert.deepEqual(loaded?.files.get('weights.bin'), files(7).get('weights.bin'));
  assert.ok(
    readdirSync(dir).some((name) => name.startsWith('corrupt-v00000002-')),
    'the corrupted folder is kept aside',
  );
  // A sound checkpoint of a version is never overwritten.
  assert.throws(() => store.save(2, files(8), {}), /already exists/);
});

test('a checkpoint a full disk cannot hold throws, leaves nothing, and saves once space returns', (t) => {
  const mount = mkdtempSync(path.join(tmpdir(), 'tti-ckpt-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mount]);
  t.after(() => {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });
  const store = new CheckpointStore(path.join(mount, 'checkpoints'), 3);
  assert.throws(
    () => store.save(1, files(1, 1024 * 1024), {}),
    (error: NodeJS.ErrnoException) => error.code === 'ENOSPC',
  );
  assert.deepEqual(readdirSync(store.dir), [], 'no half-written folder');
  execFileSync('mount', ['-o', 'remount,size=4m', mount]);
  store.save(1, files(1, 1024 * 1024), {});
  assert.equal(store.loadLatest()?.manifest.policyVersion, 1);
});
