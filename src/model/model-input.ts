// The trainable policy's inputs as they travel: frames whose layout this model owns and versions.
// The protocol carries `{ layout, version, frames }` (the indices of the message's raw frames that
// hold it) without knowing what is inside, so the featurizer can change without the protocol
// changing; a receiver that does not know a layout or its version refuses it by name.
//
// Layout `tti-features` v1, three frames:
//   0  msgpack { buckets, T, candidates, excluded, ints: [length per INT_COLUMNS], floats: [… FLOAT_COLUMNS] }
//   1  int32, the INT_COLUMNS one after another
//   2  float32, the FLOAT_COLUMNS one after another
// (typed arrays in the host's byte order: little-endian on every machine tti runs on, as the
// weights' frames). Loads no TensorFlow.js, so env workers can import it.
import { Packr } from 'msgpackr';
import { z } from 'zod';
import type { EncodedObservation } from './encode.js';
import { encodedFrom, type FeatureColumns, type PolicyFeatures } from './features.js';
import { CANDIDATE_BAGS, OBSERVATION_BAGS } from './layout.js';

export const FEATURES_LAYOUT = 'tti-features';
export const FEATURES_LAYOUT_VERSION = 1;

/** What the protocol carries of a model input: its layout, the layout's version, its frames. */
export interface ModelInputRef {
  layout: string;
  version: number;
  /** the indices of the message's raw frames that hold it, in the layout's order */
  frames: number[];
}

export class ModelInputError extends Error {
  override name = 'ModelInputError';
}

/** The integer columns, in the order of the int frame (a bag's by its path, "bags.self.tok"). */
const INT_COLUMNS: readonly string[] = [
  'kind',
  ...CANDIDATE_BAGS.flatMap((k) => [`bags.${k}.tok`, `bags.${k}.off`] as const),
  ...OBSERVATION_BAGS.flatMap((k) => [`observationBags.${k}.tok`, `observationBags.${k}.off`] as const),
  'matchSelf',
  'matchContext',
  'matchArgument',
  'matchLabel',
  'taskTok',
];
const FLOAT_COLUMNS = ['scalars', 'taskFlags', 'observationScalars'] as const;

/** A column of features by its path in INT_COLUMNS. */
function column(f: PolicyFeatures, name: string): readonly number[] {
  let v: unknown = f;
  for (const key of name.split('.')) v = (v as Record<string, unknown>)[key];
  return v as readonly number[];
}

const Meta = z.object({
  buckets: z.number().int().positive(),
  T: z.number().int().nonnegative(),
  candidates: z.array(
    z.object({
      kind: z.string(),
      action: z.string(),
      node: z.number().int(),
      text: z.string(),
      source: z.string(),
    }),
  ),
  excluded: z.array(z.number().int()),
  ints: z.array(z.number().int().nonnegative()).length(INT_COLUMNS.length),
  floats: z.array(z.number().int().nonnegative()).length(FLOAT_COLUMNS.length),
});

const packr = new Packr({ useRecords: false, mapsAsObjects: true });

/** `columns` one after another in one typed array. */
function concat<A extends Int32Array | Float32Array>(
  make: new (n: number) => A,
  columns: readonly ArrayLike<number>[],
): A {
  const out = new make(columns.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of columns) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const bytesOf = (a: Int32Array | Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** `features` as frames appended to `frames` (the message's raw frames), and what the message names of them. */
export function packModelInput(features: PolicyFeatures, frames: Buffer[]): ModelInputRef {
  const ints = INT_COLUMNS.map((name) => column(features, name));
  const floats = FLOAT_COLUMNS.map((name) => features[name]);
  const meta = {
    buckets: features.buckets,
    T: features.T,
    candidates: features.candidates,
    excluded: features.excluded,
    ints: ints.map((c) => c.length),
    floats: floats.map((c) => c.length),
  };
  const first = frames.length;
  frames.push(packr.pack(meta), bytesOf(concat(Int32Array, ints)), bytesOf(concat(Float32Array, floats)));
  return { layout: FEATURES_LAYOUT, version: FEATURES_LAYOUT_VERSION, frames: [first, first + 1, first + 2] };
}

/** A typed array over a raw frame, copied when the frame is not aligned for it. */
function view<A extends Int32Array | Float32Array>(
  make: { new (buffer: ArrayBufferLike, offset: number, length: number): A; BYTES_PER_ELEMENT: number },
  frame: Buffer,
  what: string,
): A {
  const size = make.BYTES_PER_ELEMENT;
  if (frame.byteLength % size !== 0) throw new ModelInputError(`${what}: ${frame.byteLength} bytes`);
  const aligned =
    frame.byteOffset % size === 0
      ? frame
      : Buffer.from(frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength));
  return new make(aligned.buffer, aligned.byteOffset, aligned.byteLength / size);
}

/** Splits one typed frame into its columns by the lengths the header frame gives. */
function columns<A extends Int32Array | Float32Array>(
  all: A,
  names: readonly string[],
  lengths: readonly number[],
  what: string,
): Record<string, A> {
  const total = lengths.reduce((n, l) => n + l, 0);
  if (total !== all.length)
    throw new ModelInputError(`${what}: ${all.length} values, the header says ${total}`);
  const out: Record<string, A> = {};
  let at = 0;
  names.forEach((name, i) => {
    out[name] = all.subarray(at, at + lengths[i]!) as A;
    at += lengths[i]!;
  });
  return out;
}

/**
 * The encoded observation back from a message's model input and raw frames, checked as
 * `encodedFrom` checks features (what the network would index with). A layout or a version this
 * model does not know, a frame that is missing or torn, is a ModelInputError naming it.
 */
export function unpackModelInput(
  ref: ModelInputRef,
  raw: readonly Buffer[],
  buckets: number,
): { encoded: EncodedObservation; excluded: Set<number> } {
  if (ref.layout !== FEATURES_LAYOUT || ref.version !== FEATURES_LAYOUT_VERSION)
    throw new ModelInputError(
      `layout ${ref.layout} v${ref.version} is not one this model reads (${FEATURES_LAYOUT} v${FEATURES_LAYOUT_VERSION})`,
    );
  const frames = ref.frames.map((i) => raw[i]);
  if (frames.length !== 3 || frames.some((f) => f === undefined))
    throw new ModelInputError(`frames [${ref.frames.join(', ')}]: the message has ${raw.length} raw frames`);
  const [metaFrame, intFrame, floatFrame] = frames as [Buffer, Buffer, Buffer];
  let unpacked: unknown;
  try {
    unpacked = packr.unpack(metaFrame);
  } catch (error) {
    throw new ModelInputError(`header frame is not msgpack (${(error as Error).message})`);
  }
  const parsed = Meta.safeParse(unpacked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelInputError(`header frame at ${issue?.path.join('.') || 'top'}: ${issue?.message}`);
  }
  const meta = parsed.data;
  const ints = columns(view(Int32Array, intFrame, 'int frame'), INT_COLUMNS, meta.ints, 'int frame');
  const floats = columns(
    view(Float32Array, floatFrame, 'float frame'),
    FLOAT_COLUMNS,
    meta.floats,
    'float frame',
  );
  for (const name of FLOAT_COLUMNS)
    if (!floats[name]!.every(Number.isFinite))
      throw new ModelInputError(`features.${name}: a value is not finite`);
  const bag = (prefix: string, k: string) => ({
    tok: ints[`${prefix}.${k}.tok`]!,
    off: ints[`${prefix}.${k}.off`]!,
  });
  const features: FeatureColumns = {
    buckets: meta.buckets,
    T: meta.T,
    candidates: meta.candidates,
    excluded: meta.excluded,
    kind: ints.kind!,
    bags: Object.fromEntries(CANDIDATE_BAGS.map((k) => [k, bag('bags', k)])) as FeatureColumns['bags'],
    observationBags: Object.fromEntries(
      OBSERVATION_BAGS.map((k) => [k, bag('observationBags', k)]),
    ) as FeatureColumns['observationBags'],
    matchSelf: ints.matchSelf!,
    matchContext: ints.matchContext!,
    matchArgument: ints.matchArgument!,
    matchLabel: ints.matchLabel!,
    taskTok: ints.taskTok!,
    scalars: floats.scalars!,
    taskFlags: floats.taskFlags!,
    observationScalars: floats.observationScalars!,
  };
  try {
    return encodedFrom(features, buckets);
  } catch (error) {
    throw new ModelInputError((error as Error).message);
  }
}
