import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { loadBackend, type PolicyInput, seededRandom, TfjsPolicy } from '../../src/model/index.js';
import { projectRoot } from '../../src/util/paths.js';

// MiniArena oracle steps as the env worker sends them (14 templates of the three sites).
const real = JSON.parse(
  readFileSync(path.join(projectRoot, 'test', 'model', 'real-observations.json'), 'utf8'),
) as { steps: { template: string; input: PolicyInput }[] };
const inputs = real.steps.map((s) => s.input);
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b));

before(async () => {
  await loadBackend('auto');
});

test('a batch of real observations scores as each does alone (padding changes nothing)', () => {
  const policy = TfjsPolicy.create({ seed: 1 });
  const together = policy.distributions(inputs);
  inputs.forEach((input, b) => {
    const [alone] = policy.distributions([input]);
    const template = real.steps[b]!.template;
    assert.deepEqual(
      together[b]!.candidates.map((c) => c.action),
      alone!.candidates.map((c) => c.action),
      template,
    );
    together[b]!.probabilities.forEach((p, k) => {
      assert.ok(
        close(p, alone!.probabilities[k]!),
        `${template} #${k}: ${p} batched, ${alone!.probabilities[k]} alone`,
      );
    });
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
