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

test('training tasks are drawn uniformly with replacement; test tasks run in order', async () => {
  const { TaskSampler } = await import('../../src/curriculum/task-sampler.js');
  const tasks = ['a', 'b', 'c'].map((id) => ({ file: 'f.json', id }));
  const inOrder = new TaskSampler(tasks, 'in-order');
  assert.deepEqual(
    [1, 2, 3, 4].map(() => inOrder.next().id),
    ['a', 'b', 'c', 'a'],
  );
  let s = 1;
  const uniform = new TaskSampler(tasks, 'uniform', () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  });
  const counts = new Map<string, number>();
  for (let i = 0; i < 3000; i++) {
    const { id } = uniform.next();
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  for (const id of ['a', 'b', 'c']) assert.ok((counts.get(id) ?? 0) > 900, `${id}: ${counts.get(id)}`);
  assert.throws(() => new TaskSampler([], 'uniform'), /no tasks/);
});
