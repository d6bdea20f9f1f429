// The inference worker's dynamic batching: requests that arrive within max_wait share one batch,
// a full batch does not wait, and batches never overlap (the only moment weights may be swapped).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamicBatcher } from '../../src/actors/roles/dynamic-batcher.js';

test('requests within max_wait share a batch; later ones start the next', async () => {
  const batches: number[][] = [];
  const batcher = new DynamicBatcher<number>(
    { maxBatch: 16, maxWaitMs: 30 },
    async (batch) => {
      batches.push(batch);
    },
    (e) => assert.fail(e),
  );
  for (let i = 0; i < 5; i++) batcher.push(i);
  await sleep(100);
  batcher.push(5);
  await sleep(100);
  await batcher.close();
  assert.deepEqual(batches, [[0, 1, 2, 3, 4], [5]]);
});

test('a full batch goes at once and the rest wait for the next', async () => {
  const batches: number[][] = [];
  const started = Date.now();
  let firstAt = 0;
  const batcher = new DynamicBatcher<number>(
    { maxBatch: 4, maxWaitMs: 5000 },
    async (batch) => {
      if (batches.length === 0) firstAt = Date.now() - started;
      batches.push(batch);
    },
    (e) => assert.fail(e),
  );
  for (let i = 0; i < 8; i++) batcher.push(i);
  await sleep(50);
  await batcher.close();
  assert.deepEqual(batches, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ]);
  assert.ok(firstAt < 1000, `a full batch did not wait for max_wait (${firstAt} ms)`);
});

test('batches never overlap, and a failing batch does not stop the next', async () => {
  let running = 0;
  let overlapped = false;
  const errors: string[] = [];
  const seen: number[] = [];
  const batcher = new DynamicBatcher<number>(
    { maxBatch: 2, maxWaitMs: 0 },
    async (batch) => {
      running++;
      if (running > 1) overlapped = true;
      await sleep(10);
      running--;
      seen.push(...batch);
      if (batch.includes(1)) throw new Error('bad batch');
    },
    (e) => errors.push(e.message),
  );
  for (let i = 0; i < 6; i++) batcher.push(i);
  await sleep(150);
  await batcher.close();
  assert.equal(overlapped, false);
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(errors, ['bad batch']);
});
