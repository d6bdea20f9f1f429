import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { loadBackend, type PolicyInput, seededRandom, TfjsPolicy } from '../../src/model/index.js';
import { disposePacked, pack } from '../../src/model/policy.js';
import { fnv1a } from '../../src/model/text.js';
import { projectRoot } from '../../src/util/paths.js';

// MiniArena oracle steps as the env worker sends them (14 templates of the three sites).
const real = JSON.parse(
  readFileSync(path.join(projectRoot, 'test', 'model', 'real-observations.json'), 'utf8'),
) as { steps: { template: string; input: PolicyInput }[] };
const inputs = real.steps.map((s) => s.input);
// The same policy's logits, one input at a time, before batch featurisation (see the file's `about`).
const golden = JSON.parse(
  readFileSync(path.join(projectRoot, 'test', 'model', 'golden-logits.json'), 'utf8'),
) as {
  steps: { template: string; candidates: number; actionsHash: number; logits: number[] }[];
};

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b));

before(async () => {
  await loadBackend('auto');
});

test('a batch of real observations scores as each does alone, and as the policy did before batching', () => {
  const policy = TfjsPolicy.create({ seed: 1 });
  const together = policy.scoreBatch(inputs);
  inputs.forEach((input, b) => {
    const alone = policy.scoreBatch([input]);
    const actions = together.features[b]!.candidates.map((c) => c.action);
    assert.deepEqual(
      actions,
      alone.features[0]!.candidates.map((c) => c.action),
    );
    const want = golden.steps[b]!;
    assert.equal(actions.length, want.candidates, want.template);
    assert.equal(fnv1a(actions.join('\n')), want.actionsHash, `${want.template}: candidates changed`);
    together.logits[b]!.forEach((x, k) => {
      assert.ok(
        close(x, alone.logits[0]![k]!),
        `${want.template} #${k}: ${x} batched, ${alone.logits[0]![k]} alone`,
      );
      assert.ok(close(x, want.logits[k]!), `${want.template} #${k}: ${x}, before ${want.logits[k]}`);
    });
  });
  policy.dispose();
});

test("the trainer's differentiable graph computes the same logits as inference", () => {
  const policy = TfjsPolicy.create({ seed: 5, priorWeight: 2 });
  const batch = policy.featurizeBatch(inputs);
  const fast = policy.logits(batch);
  const packed = pack(batch);
  const t = policy.logitsTensor(packed);
  const graph = t.dataSync();
  t.dispose();
  disposePacked(packed);
  assert.equal(fast.length, graph.length);
  fast.forEach((x, r) => {
    assert.ok(close(x, graph[r]!), `row ${r}: ${x} vs ${graph[r]}`);
  });
  policy.dispose();
});

test('sampling and greedy decisions are the same batched or one at a time, with the same seeded stream', () => {
  const policy = TfjsPolicy.create({ seed: 2 });
  for (const greedy of [true, false]) {
    const options = (seed: number) => ({ greedy, temperature: 1, random: seededRandom(seed) });
    const together = policy.act(inputs, options(7));
    const one = options(7);
    const alone = inputs.map((input) => policy.act([input], one)[0]!);
    assert.deepEqual(
      together.map((d) => d.action),
      alone.map((d) => d.action),
    );
    together.forEach((d, b) => {
      assert.ok(close(d.logProb, alone[b]!.logProb));
    });
    // and again: reused buffers leave nothing behind from the last batch
    assert.deepEqual(policy.act(inputs, options(7)), together);
  }
  policy.dispose();
});
