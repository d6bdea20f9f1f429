import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffMs, intensityExceeded } from '../../src/actors/supervisor/restart-policy.js';

const policy = { maxRestarts: 3, windowMs: 10000, backoffInitialMs: 100, backoffMaxMs: 1000 };

test('backoff doubles per recent restart and is capped', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, policy)),
    [100, 200, 400, 800, 1000, 1000],
  );
});

test('more than max_restarts within the window exceeds the intensity; older ones do not count', () => {
  assert.equal(intensityExceeded([1000, 2000, 3000], 4000, policy), false);
  assert.equal(intensityExceeded([1000, 2000, 3000, 4000], 4000, policy), true);
  assert.equal(intensityExceeded([1000, 2000, 13000, 14000], 14000, policy), false);
});
