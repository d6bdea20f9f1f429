import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  drawByGroupWeight,
  type GroupRecords,
  LEARNABILITY_FLOOR,
  learnability,
  recordOutcomes,
  type TaskRef,
} from '../../src/curriculum/index.js';
import { SeededRandom } from '../../src/util/index.js';

// Three groups of tasks, as a suite's templates: one always solved, one never, one half the time.
const tasks: TaskRef[] = ['easy', 'hard', 'half'].flatMap((g) =>
  [1, 2, 3].map((k) => ({ file: 'tasks.json', id: `${g}-${k}` })),
);
const groupOf = (t: TaskRef) => t.id.split('-')[0]!;

test('learnability is p(1−p) of the Beta(1, 1) success rate, with a floor', () => {
  assert.equal(learnability(undefined), 0.25);
  assert.equal(learnability({ attempts: 10, successes: 5 }), 0.25);
  assert.ok(Math.abs(learnability({ attempts: 8, successes: 0 }) - 0.1 * 0.9) < 1e-12);
  assert.equal(learnability({ attempts: 1000, successes: 1000 }), LEARNABILITY_FLOOR);
});

test('a group solved about half the time is drawn most, and every group stays in the draw', () => {
  const records: GroupRecords = {};
  recordOutcomes(records, [
    ...Array.from({ length: 40 }, () => ({ group: 'easy', success: true })),
    ...Array.from({ length: 40 }, () => ({ group: 'hard', success: false })),
    ...Array.from({ length: 40 }, (_, i) => ({ group: 'half', success: i % 2 === 0 })),
  ]);
  assert.deepEqual(records.half, { attempts: 40, successes: 20 });
  const draws = drawByGroupWeight(
    tasks,
    groupOf,
    (g) => learnability(records[g]),
    3000,
    new SeededRandom(7).next,
  );
  const count = (g: string) => draws.filter((t) => groupOf(t) === g).length;
  assert.ok(count('half') > 0.7 * draws.length, `half ${count('half')} of ${draws.length}`);
  assert.ok(count('easy') > 0 && count('hard') > 0, `easy ${count('easy')}, hard ${count('hard')}`);
  // within a group, every task is drawn
  assert.equal(new Set(draws.filter((t) => groupOf(t) === 'half').map((t) => t.id)).size, 3);
});

test('with no outcomes yet the draw is uniform over groups, and it repeats with its seed', () => {
  const a = drawByGroupWeight(tasks, groupOf, () => learnability(undefined), 3000, new SeededRandom(1).next);
  const b = drawByGroupWeight(tasks, groupOf, () => learnability(undefined), 3000, new SeededRandom(1).next);
  assert.deepEqual(a, b);
  for (const g of ['easy', 'hard', 'half']) {
    const n = a.filter((t) => groupOf(t) === g).length;
    assert.ok(n > 850 && n < 1150, `${g}: ${n}`);
  }
  assert.throws(() => drawByGroupWeight([], groupOf, () => 1, 1, Math.random), /no tasks/);
});
