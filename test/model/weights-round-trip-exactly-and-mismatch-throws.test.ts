import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadBackend, TfjsPolicy } from '../../src/model/index.js';
import { input } from './fixtures.js';

before(async () => {
  await loadBackend('auto');
});

test('exported weights import into another policy bit for bit, and it then acts the same', () => {
  const a = TfjsPolicy.create({ seed: 1 });
  const b = TfjsPolicy.create({ seed: 2 });
  const greedy = { greedy: true, temperature: 1, random: () => 0 };
  const w = a.exportWeights();
  assert.ok(w.specs.every((s) => s.dtype === 'float32'));
  assert.equal(w.frames.length, w.specs.length);
  // frames as they arrive off a socket: unaligned copies
  const unaligned = w.frames.map((f) => Buffer.concat([Buffer.from([0]), f]).subarray(1));
  b.importWeights({ specs: w.specs, frames: unaligned });
  const back = b.exportWeights();
  back.frames.forEach((f, i) => {
    assert.ok(f.equals(w.frames[i]!), w.specs[i]!.name);
  });
  assert.deepEqual(b.act([input()], greedy), a.act([input()], greedy));
  a.dispose();
  b.dispose();
});

test('the same seed initialises the same weights; another seed does not', () => {
  const a = TfjsPolicy.create({ seed: 7 }).exportWeights();
  const b = TfjsPolicy.create({ seed: 7 }).exportWeights();
  const c = TfjsPolicy.create({ seed: 8 }).exportWeights();
  assert.ok(a.frames.every((f, i) => f.equals(b.frames[i]!)));
  assert.ok(!a.frames[0]!.equals(c.frames[0]!));
});

test('weights of another shape or name are refused with a clear error, leaving the policy intact', () => {
  const small = TfjsPolicy.create({ seed: 1, hidden: 8 });
  const big = TfjsPolicy.create({ seed: 1 });
  const before = big.exportWeights();
  assert.throws(
    () => big.importWeights(small.exportWeights()),
    /weights do not fit this policy: it needs .*candidate\/w \[\d+,64\].*; the weights have .*candidate\/w \[\d+,8\]/,
  );
  const renamed = big.exportWeights();
  renamed.specs[0] = { ...renamed.specs[0]!, name: 'something' };
  assert.throws(() => big.importWeights(renamed), /the weights have something/);
  const short = big.exportWeights();
  short.frames[1] = short.frames[1]!.subarray(4);
  assert.throws(() => big.importWeights(short), /bytes, expected/);
  big.exportWeights().frames.forEach((f, i) => {
    assert.ok(f.equals(before.frames[i]!));
  });
});
