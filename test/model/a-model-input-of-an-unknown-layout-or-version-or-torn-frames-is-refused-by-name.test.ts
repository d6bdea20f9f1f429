// The protocol carries the trainable policy's inputs as frames of a layout the model owns
// (src/model/model-input.ts). A receiver refuses, by name, a layout or a version it does not know,
// a frame that is missing, or frames torn on the way; the inference worker then counts the
// refusal, logs it and encodes the page itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  FEATURES_LAYOUT,
  FEATURES_LAYOUT_VERSION,
  featuresOf,
  ModelInputError,
  type PolicyInput,
  packModelInput,
  unpackModelInput,
} from '../../src/model/without-tfjs.js';
import { projectRoot } from '../../src/util/paths.js';

const real = JSON.parse(
  readFileSync(path.join(projectRoot, 'test', 'model', 'real-observations.json'), 'utf8'),
) as { steps: { input: PolicyInput }[] };
const input = real.steps[0]!.input;
const features = featuresOf(input);

function packed() {
  const frames: Buffer[] = [Buffer.from('a screenshot before them')];
  const ref = packModelInput(features, frames);
  return { ref, frames };
}

const refused = (run: () => unknown, why: RegExp) =>
  assert.throws(run, (e: Error) => e instanceof ModelInputError && why.test(e.message), `refused: ${why}`);

test('frames of the known layout come back as the page the env encoded', () => {
  const { ref, frames } = packed();
  assert.deepEqual(ref, { layout: FEATURES_LAYOUT, version: FEATURES_LAYOUT_VERSION, frames: [1, 2, 3] });
  const { encoded, excluded } = unpackModelInput(ref, frames, features.buckets);
  assert.equal(encoded.candidates.length, features.candidates.length);
  assert.deepEqual(Array.from(encoded.scalars), features.scalars);
  assert.deepEqual(Array.from(encoded.matchLabel), features.matchLabel);
  assert.deepEqual([...excluded], features.excluded);
});

test('an unknown layout or version is refused, naming both it and the one this model reads', () => {
  const { ref, frames } = packed();
  const known = `${FEATURES_LAYOUT} v${FEATURES_LAYOUT_VERSION}`;
  refused(
    () => unpackModelInput({ ...ref, layout: 'token-ids' }, frames, features.buckets),
    new RegExp(`layout token-ids v1 is not one this model reads \\(${known}\\)`),
  );
  refused(
    () => unpackModelInput({ ...ref, version: FEATURES_LAYOUT_VERSION + 1 }, frames, features.buckets),
    new RegExp(`v${FEATURES_LAYOUT_VERSION + 1} is not one this model reads`),
  );
});

test('a missing frame, a torn one or a bad header frame is refused by name', () => {
  const { ref, frames } = packed();
  refused(
    () => unpackModelInput({ ...ref, frames: [1, 2, 9] }, frames, features.buckets),
    /frames \[1, 2, 9\]/,
  );
  refused(() => unpackModelInput({ ...ref, frames: [1, 2] }, frames, features.buckets), /frames \[1, 2\]/);
  const torn = [...frames];
  torn[2] = frames[2]!.subarray(0, frames[2]!.byteLength - 4);
  refused(() => unpackModelInput(ref, torn, features.buckets), /int frame: \d+ values, the header says \d+/);
  const odd = [...frames];
  odd[3] = frames[3]!.subarray(1);
  refused(() => unpackModelInput(ref, odd, features.buckets), /float frame: \d+ bytes/);
  const cut = [...frames];
  cut[1] = frames[1]!.subarray(0, 5);
  refused(() => unpackModelInput(ref, cut, features.buckets), /header frame is not msgpack/);
  const other = [...frames];
  other[1] = Buffer.from([0xc1]);
  refused(() => unpackModelInput(ref, other, features.buckets), /header frame at buckets: /);
  const nan = [...frames];
  const floats = Buffer.from(frames[3]!);
  floats.writeFloatLE(Number.NaN, 0);
  nan[3] = floats;
  refused(() => unpackModelInput(ref, nan, features.buckets), /features\.scalars: a value is not finite/);
  refused(() => unpackModelInput(ref, frames, features.buckets * 2), /features\.buckets: encoded for/);
});
