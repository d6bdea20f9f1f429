// model.featurize: env — the env worker encodes its page (features.ts) and the inference worker
// runs only the network on what arrives. What it decides must be what it would have decided from
// the raw observation, through msgpack as on the wire; features it cannot use are an error naming
// the field, never logits read out of bounds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { Packr } from 'msgpackr';
import {
  encodedFrom,
  FeaturesError,
  featuresOf,
  loadBackend,
  type PolicyFeatures,
  type PolicyInput,
  seededRandom,
  TfjsPolicy,
} from '../../src/model/index.js';
import { ActRequest } from '../../src/protocol/index.js';
import { projectRoot } from '../../src/util/paths.js';

const real = JSON.parse(
  readFileSync(path.join(projectRoot, 'test', 'model', 'real-observations.json'), 'utf8'),
) as { steps: { template: string; input: PolicyInput }[] };
const inputs = real.steps.map((s) => s.input);
const packr = new Packr({ useRecords: false, mapsAsObjects: true });
const wire = (f: PolicyFeatures): PolicyFeatures => packr.unpack(packr.pack(f)) as PolicyFeatures;

before(async () => {
  await loadBackend('auto');
});

test('decisions from the env worker’s features equal those from the raw observations, greedy and sampled', () => {
  const policy = TfjsPolicy.create({ seed: 3 });
  const decoded = inputs.map((input) => encodedFrom(wire(featuresOf(input)), policy.options.buckets));
  for (const greedy of [true, false]) {
    const options = { greedy, temperature: 1, random: seededRandom(7) };
    const raw = policy.act(inputs, options);
    const fromFeatures = policy.actOn(
      decoded.map((d) => d.encoded),
      decoded.map((d) => d.excluded),
      { ...options, random: seededRandom(7) },
    );
    assert.deepEqual(
      fromFeatures.map((d) => [d.action, d.logProb]),
      raw.map((d) => [d.action, d.logProb]),
    );
  }
  policy.dispose();
});

test('features pass the act request’s schema', () => {
  const input = inputs[0]!;
  const request = {
    type: 'act_request',
    policy: 'tfjs',
    workerId: 'env-0',
    episodeId: 'e',
    step: input.step,
    horizon: input.horizon,
    intent: input.intent,
    observation: { text: '', url: input.url, nodes: input.nodes, note: null, screenshotFrame: null },
    history: input.history,
    trail: input.trail ?? [],
    greedy: true,
    temperature: 1,
    features: wire(featuresOf(input)),
  };
  assert.ok(ActRequest.safeParse(request).success);
  assert.ok(!ActRequest.safeParse({ ...request, features: { ...request.features, scalars: ['x'] } }).success);
});

test('features for other buckets, out-of-range tokens or torn bags are refused, naming the field', () => {
  const f = featuresOf(inputs[0]!);
  const refused = (bad: PolicyFeatures, field: RegExp) =>
    assert.throws(
      () => encodedFrom(bad, f.buckets),
      (e: Error) => e instanceof FeaturesError && field.test(e.message),
    );
  assert.throws(
    () => encodedFrom(f, f.buckets * 2),
    /features\.buckets: encoded for 16384 buckets, the policy has 32768/,
  );
  refused({ ...f, taskTok: f.taskTok.map(() => f.buckets + 5) }, /features\.taskTok: token \d+ outside/);
  refused(
    { ...f, bags: { ...f.bags, context: { tok: f.bags.context.tok, off: f.bags.context.off.slice(1) } } },
    /features\.bags\.context\.off/,
  );
  refused({ ...f, scalars: f.scalars.slice(1) }, /features\.scalars: \d+ values, expected/);
  refused({ ...f, matchSelf: [f.candidates.length * f.T] }, /features\.matchSelf: index/);
  refused({ ...f, kind: f.kind.map((k) => (k + 1) % 7) }, /features\.kind\[0\]/);
  refused({ ...f, excluded: [f.candidates.length] }, /features\.excluded/);
});
