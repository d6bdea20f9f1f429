import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CheckpointStore } from '../../src/model/checkpoint-store.js';

const files = (v: number) =>
  new Map([
    ['weights.bin', Buffer.from(new Float32Array([v, v + 0.5]).buffer)],
    ['optimizer.bin', Buffer.from(`adam state ${v}`)],
  ]);
const fresh = () => new CheckpointStore(mkdtempSync(path.join(tmpdir(), 'tti-ckpt-')), 3);

test('a saved checkpoint loads back with its files and counters', () => {
  const store = fresh();
  store.save(1, files(1), { iteration: 1, step: 40 });
  const loaded = store.loadLatest();
  assert.ok(loaded);
  assert.equal(loaded.manifest.policyVersion, 1);
  assert.deepEqual(loaded.manifest.counters, { iteration: 1, step: 40 });
  assert.deepEqual(loaded.files.get('weights.bin'), files(1).get('weights.bin'));
  assert.deepEqual(loaded.skipped, []);
});

test('a corrupted latest checkpoint falls back to the previous one, saying why', () => {
  const store = fresh();
  store.save(1, files(1), { iteration: 1 });
  store.save(2, files(2), { iteration: 2 });
  writeFileSync(
    path.join(store.dir, 'v00000002', 'weights.bin'),
    Buffer.from(new Float32Array([9, 9]).buffer),
  );
  const loaded = store.loadLatest();
  assert.equal(loaded?.manifest.policyVersion, 1);
  assert.deepEqual(loaded?.skipped, [{ policyVersion: 2, reason: 'weights.bin fails its sha256' }]);
});

test('a checkpoint without its manifest (torn) is skipped; none at all gives null', () => {
  const store = fresh();
  assert.equal(store.loadLatest(), null);
  store.save(1, files(1), {});
  store.save(2, files(2), {});
  rmSync(path.join(store.dir, 'v00000002', 'manifest.json'));
  const loaded = store.loadLatest();
  assert.equal(loaded?.manifest.policyVersion, 1);
  assert.match(loaded?.skipped[0]?.reason ?? '', /manifest.json cannot be read/);
});

test('only the newest `keep` are kept, and a crashed save leaves no trace after the next one', () => {
  const store = fresh();
  mkdirSync(path.join(store.dir, '.tmp-v00000009-1'));
  for (const v of [1, 2, 3, 4, 5]) store.save(v, files(v), {});
  assert.deepEqual(store.versions(), [3, 4, 5]);
  assert.deepEqual(readdirSync(store.dir).sort(), ['v00000003', 'v00000004', 'v00000005']);
  assert.throws(() => store.save(5, files(5), {}), /already exists/);
});
