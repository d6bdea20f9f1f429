// learner.demos: the demos mixed into an iteration are drawn without replacement, the same ones
// for the same stream, and read with the pretrain command's reader and alignment.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { drawDemoSteps, loadDemoMix } from '../../src/model/index.js';
import { SeededRandom } from '../../src/util/index.js';
import { projectRoot } from '../../src/util/paths.js';

const FIXTURE = path.join(projectRoot, 'test/fixtures/pretrain/oracle-demos.jsonl');

test('a draw takes distinct demos, repeats for the same seed and stops at what the file holds', async () => {
  const mix = await loadDemoMix(FIXTURE, 30);
  assert.equal(mix.trajectories.length, 4);
  assert.equal(mix.steps, 9);
  const stepsOf = new Map(mix.trajectories.map((t) => [t.intent, t.steps.length]));

  const draw = (seed: number, count: number) => drawDemoSteps(mix, count, new SeededRandom(seed).next, true);
  const three = draw(1, 3);
  assert.equal(three.trajectories, 3);
  const intents = new Set(three.steps.map((s) => s.input.intent));
  assert.equal(intents.size, 3, 'three different demos');
  assert.equal(
    three.steps.length,
    [...intents].reduce((n, intent) => n + stepsOf.get(intent)!, 0),
    'every step of each drawn demo',
  );
  assert.deepEqual(
    draw(1, 3).steps.map((s) => s.action),
    three.steps.map((s) => s.action),
  );
  const others = [2, 3, 4, 5, 6].map((seed) =>
    [...new Set(draw(seed, 3).steps.map((s) => s.input.intent))].sort(),
  );
  assert.ok(
    others.some((o) => o.join('|') !== [...intents].sort().join('|')),
    'other seeds draw other demos',
  );
  const all = draw(1, 10);
  assert.equal(all.trajectories, 4);
  assert.equal(all.steps.length, 9);
  // the draw works on a copy: the mix keeps its order for the next iteration
  assert.equal(mix.trajectories.length, 4);
});
