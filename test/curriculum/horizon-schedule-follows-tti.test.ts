import assert from 'node:assert/strict';
import { test } from 'node:test';
import { horizonAt, TTI_SCHEDULE } from '../../src/curriculum/horizon-schedule.js';

test("TTI's schedule: 10 at iteration 1, 20 at 2-3, 30 from 4 on", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 10].map((i) => horizonAt(TTI_SCHEDULE, i)),
    [10, 20, 20, 30, 30, 30],
  );
});

test('a multiplicative schedule grows every `every` iterations up to its cap', () => {
  const schedule = { kind: 'multiplicative', start: 5, factor: 2, every: 2, max: 30 } as const;
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7].map((i) => horizonAt(schedule, i)),
    [5, 5, 10, 10, 20, 20, 30],
  );
});

test('iterations start at 1', () => {
  assert.throws(() => horizonAt(TTI_SCHEDULE, 0), /iteration must be ≥ 1/);
});
