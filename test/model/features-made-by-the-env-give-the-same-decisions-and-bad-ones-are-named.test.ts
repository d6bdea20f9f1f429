// model.featurize: env — the env worker encodes its page (features.ts), sends it as frames of the
// model's layout (model-input.ts) and the inference worker runs only the network on what arrives.
// What it decides must be what it would have decided from the raw observation, through the
// protocol's own envelope as on the wire; features it cannot use are an error naming the field,
// never logits read out of bounds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import {
  encodedFrom,
  FeaturesError,
  featuresOf,
  loadBackend,
  type PolicyFeatures,
  type PolicyInput,
  packModelInput,
  seededRandom,
  TfjsPolicy,
  unpackModelInput,
} from '../../src/model/index.js';
import { decode, encode, Inbound } from '../../src/protocol/index.js';
import { projectRoot } from '../../src/util/paths.js';

const real = JSON.parse(
  readFileSync(path.join(projectRoot, 'test', 'model', 'real-observations.json'), 'utf8'),
) as { steps: { template: string; input: PolicyInput }[] };
const inputs = real.steps.map((s) => s.input);

/** An act request for `input` with its features as the model's frames, as an env worker sends it. */
function requestOf(input: PolicyInput, features: PolicyFeatures = featuresOf(input)) {
  const frames: Buffer[] = [];
  const modelInput = packModelInput(features, frames);
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
    modelInput,
  };
  return { request, frames };
}

/** Through the protocol's envelope and the act socket's schema, then back to the encoded page. */
function overTheWire(input: PolicyInput, buckets: number) {
  const { request, frames } = requestOf(input);
  const decoded = decode(Inbound.actToInference, encode(request, frames));
  assert.ok(decoded.ok, decoded.ok ? '' : decoded.reason);
  const message = decoded.value.message;
  assert.ok(message.policy === 'tfjs' && message.modelInput !== undefined);
  return unpackModelInput(message.modelInput, decoded.value.raw, buckets);
}

before(async () => {
  await loadBackend('auto');
});

test('decisions from the env worker’s features equal those from the raw observations, greedy and sampled', () => {
  const policy = TfjsPolicy.create({ seed: 3 });
  const decoded = inputs.map((input) => overTheWire(input, policy.options.buckets));
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

test('the act request carries the model input as raw frames, none of its columns in the header', () => {
  const { request, frames } = requestOf(inputs[0]!);
  const [header, ...raw] = encode(request, frames);
  assert.equal(raw.length, 3);
  assert.deepEqual(request.modelInput.frames, [0, 1, 2]);
  assert.ok(!header!.toString('latin1').includes('matchSelf'), 'no featurizer column in the header');
  assert.ok(
    !decode(
      Inbound.actToInference,
      encode({ ...request, modelInput: { layout: '', version: 1, frames: [0] } }, frames),
    ).ok,
  );
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
