import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { loadBackend, PriorFileError, readPriorFile, TfjsPolicy } from '../../src/model/index.js';
import { input } from './fixtures.js';

before(async () => {
  await loadBackend('auto');
});

const dir = mkdtempSync(path.join(tmpdir(), 'tti-prior-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, body: unknown): string => {
  const f = path.join(dir, name);
  writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body));
  return f;
};

/** The share of the untrained policy's mass on each action kind for one observation. */
function massByKind(policy: TfjsPolicy): Map<string, number> {
  const [d] = policy.distributions([input({ intent: 'What is the price of Blue Mug?' })]);
  const mass = new Map<string, number>();
  d!.candidates.forEach((c, i) => {
    mass.set(c.kind, (mass.get(c.kind) ?? 0) + d!.probabilities[i]!);
  });
  return mass;
}

test('a prior file moves the untrained policy’s mass between kinds; absent kinds weigh 1', () => {
  const uniform = massByKind(TfjsPolicy.create({ seed: 1 }));
  const prior = readPriorFile(file('clicks.json', { kindWeights: { click: 8 } }));
  assert.equal(prior.kindWeights.click, 8);
  assert.equal(prior.kindWeights.answer, 1);
  const clicky = massByKind(TfjsPolicy.create({ seed: 1, prior }));
  assert.ok(uniform.has('click') && uniform.has('answer'), 'the page offers clicks and answers');
  assert.ok(clicky.get('click')! > 2 * uniform.get('click')!, 'clicks get more of the mass');
  assert.ok(clicky.get('answer')! < uniform.get('answer')!, 'answers get less');
});

test('a bad prior file is an error naming the file and the field', () => {
  const cases: [unknown, RegExp][] = [
    ['{ not json', /not a JSON prior/],
    [[1, 2], /an object with kindWeights and factWeights/],
    [{ kindWeights: { clik: 2 } }, /kindWeights\.clik is not one of click/],
    [{ kindWeights: { click: 0 } }, /kindWeights\.click must be a positive number/],
    [{ factWeights: { self_in_task: 'high' } }, /factWeights\.self_in_task must be a finite number/],
    [{ factWeights: { template_id: 1 } }, /factWeights\.template_id is not one of/],
    [{ kindWeights: {}, theta: {} }, /unknown field theta/],
  ];
  cases.forEach(([body, message], i) => {
    const f = file(`bad-${i}.json`, body);
    assert.throws(
      () => readPriorFile(f),
      (e: unknown) => e instanceof PriorFileError && e.message.startsWith(f) && message.test(e.message),
    );
  });
});
