// The inference worker's dynamic batching: requests that arrive within max_wait share one batch,
// a full batch does not wait, and batches never overlap (the only moment weights may be swapped).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamicBatcher } from '../../src/actors/roles/dynamic-batcher.js';

/** Polls until `done` holds; the bound is generous, for a loaded machine. */
async function until(done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await sleep(10);
  }
}

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
  // max_wait is far longer than the test may take: only a full batch can go before close().
  const batcher = new DynamicBatcher<number>(
    { maxBatch: 4, maxWaitMs: 3_600_000 },
    async (batch) => {
      batches.push(batch);
    },
    (e) => assert.fail(e),
  );
  for (let i = 0; i < 8; i++) batcher.push(i);
  await until(() => batches.length === 2);
  assert.deepEqual(batches, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ]);
  await batcher.close();
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
  // close() ends after the batch in hand, so wait for all three first.
  await until(() => seen.length === 6);
  await batcher.close();
  assert.equal(overlapped, false);
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(errors, ['bad batch']);
});
