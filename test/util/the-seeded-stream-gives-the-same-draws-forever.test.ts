// tti has one seeded random stream (src/util/random.ts). Runs resume from its saved state, and
// MiniArena's committed world and task files are its output, so its draws are pinned here: these
// values are what both earlier streams (the curriculum's and MiniArena's, now one) gave.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mixSeeds, SeededRandom } from '../../src/util/index.js';

test('a seed gives the draws it always gave, through every helper', () => {
  const r = new SeededRandom(42);
  assert.deepEqual(
    [r.next(), r.next(), r.next()],
    [0.6011037519201636, 0.44829055899754167, 0.8524657934904099],
  );
  const a = new SeededRandom(7);
  assert.deepEqual(
    [
      a.int(1, 6),
      a.int(1, 6),
      a.chance(0.5),
      a.pick(['a', 'b', 'c']),
      a.shuffle([1, 2, 3, 4, 5]),
      a.sample([1, 2, 3, 4, 5], 2),
    ],
    [1, 1, false, 'c', [5, 1, 4, 2, 3], [2, 4]],
  );
  assert.equal(new SeededRandom(7).fork('shop').next(), 0.2498152309563011);
  assert.equal(mixSeeds(1, 2, 3), 2901138804);
});

test('a restored state resumes the same draws, and a fork ignores what its parent draws later', () => {
  const r = new SeededRandom(3);
  r.next();
  const saved = r.state;
  const ahead = [r.next(), r.next()];
  const resumed = new SeededRandom(0);
  resumed.state = saved;
  assert.deepEqual([resumed.next(), resumed.next()], ahead);

  const parent = new SeededRandom(11);
  const early = parent.fork('tasks').next();
  const other = new SeededRandom(11);
  const child = other.fork('tasks');
  other.next();
  other.next();
  assert.equal(child.next(), early);
  // sample() never returns more than it has, nor a negative count
  assert.deepEqual(new SeededRandom(1).sample([1, 2], 5).sort(), [1, 2]);
  assert.deepEqual(new SeededRandom(1).sample([1, 2], -1), []);
});
