import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  decayOutcomes,
  drawByGroupWeight,
  type GroupRecords,
  recordOutcomes,
  type TaskRef,
  UNSOLVED_FLOOR,
  unsolvedWeight,
} from '../../src/curriculum/index.js';
import { SeededRandom } from '../../src/util/index.js';

const tasks: TaskRef[] = ['easy', 'hard', 'half'].flatMap((g) =>
  [1, 2, 3].map((k) => ({ file: 'tasks.json', id: `${g}-${k}` })),
);
const groupOf = (t: TaskRef) => t.id.split('-')[0]!;
const outcomes = (group: string, n: number, solved: (i: number) => boolean) =>
  Array.from({ length: n }, (_, i) => ({ group, success: solved(i) }));

test('the unsolved weight is 1 − p of the Beta(1, 1) success rate, with a floor', () => {
  assert.equal(unsolvedWeight(undefined), 0.5);
  assert.ok(Math.abs(unsolvedWeight({ attempts: 8, successes: 0 }) - 0.9) < 1e-12);
  assert.equal(unsolvedWeight({ attempts: 1000, successes: 1000 }), UNSOLVED_FLOOR);
});

test('a group the policy never solves is drawn most, and a solved one stays in the draw', () => {
  const records: GroupRecords = {};
  recordOutcomes(records, [
    ...outcomes('easy', 40, () => true),
    ...outcomes('hard', 40, () => false),
    ...outcomes('half', 40, (i) => i % 2 === 0),
  ]);
  const draws = drawByGroupWeight(
    tasks,
    groupOf,
    (g) => unsolvedWeight(records[g]),
    3000,
    new SeededRandom(7).next,
  );
  const count = (g: string) => draws.filter((t) => groupOf(t) === g).length;
  assert.ok(count('hard') > count('half') && count('half') > count('easy'), JSON.stringify(records));
  assert.ok(count('hard') > 0.55 * draws.length, `hard ${count('hard')}`);
  assert.ok(count('easy') > 0, 'a solved group is still drawn');
});

test('old outcomes fade: a group just learned is soon drawn little', () => {
  const records: GroupRecords = {};
  recordOutcomes(
    records,
    outcomes('late', 40, () => false),
  );
  const before = unsolvedWeight(records.late);
  // two iterations in which the policy solves it every time
  for (let k = 0; k < 2; k++) {
    decayOutcomes(records);
    recordOutcomes(
      records,
      outcomes('late', 10, () => true),
    );
  }
  assert.ok(records.late!.attempts < 40, 'the counts were halved each iteration');
  assert.ok(unsolvedWeight(records.late) < 0.5 * before, `${unsolvedWeight(records.late)} vs ${before}`);
  // cumulative counts would still call it mostly unsolved (20 of 60)
  assert.ok(unsolvedWeight({ attempts: 60, successes: 20 }) > unsolvedWeight(records.late));
});
