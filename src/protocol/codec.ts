// The wire protocol between tti's processes, declared once.
//
// Every message is a zod schema; its TypeScript type is inferred from that schema, so the type and
// the runtime check cannot drift apart. A message travels as ZeroMQ frames:
//   [ msgpack(header), raw0, raw1, ... ]
// The header is `{ v: PROTOCOL_VERSION, raw: [byteLength...], body: { type, ...fields } }`. Large binary payloads (tensors,
// screenshots) travel as their own raw frames, never inside the msgpack map: a Buffer unpacked from
// inside a map is a view at an arbitrary offset, and a Float32Array over it throws.
import { Packr } from 'msgpackr';
import { z } from 'zod';
import { Speaker, WorkerId } from './fields.js';
import { fastCheck } from './validate.js';

/**
 * Bumped when a message changes shape, so an older peer gets a clear refusal rather than its
 * messages failing validation one by one. 2: trajectories and act requests name their sender and key.
 * 3: an act request says which kind of policy it is for (`policy`), and carries that kind's inputs.
 * 4: the trainable policy's inputs travel as frames of a layout the model owns (`modelInput`), no
 * longer as the featurizer's columns in the header. 5: a remote inference worker announces itself
 * to the act relay (`act_ready`), which takes each reply only from the worker its request went to;
 * a spawned worker's `register` carries the nonce its supervisor gave it (`spawn`), and status
 * names no pids. 6: an episode result's strategy numbers travel as `extras` under the strategy's
 * name, no longer as a search's own `search` field. 7: a task's offers may name the `stroke` pointer
 * actions (an older peer would refuse the offer).
 * An added optional field (an episode result's `timing`) keeps the version: an older peer drops it
 * (zod strips unknown keys) and a newer one takes a result without it.
 */
export const PROTOCOL_VERSION = 7;

// --- encoding ------------------------------------------------------------------------------------

// One Packr for the process. `useRecords: false` keeps the encoding plain msgpack, readable by any
// msgpack peer (a Python worker, a debugging tool).
const packr = new Packr({ useRecords: false, mapsAsObjects: true });

const NO_FRAMES: Buffer[] = [];
const NO_LENGTHS: number[] = [];

export interface Decoded<T> {
  message: T;
  raw: Buffer[];
}

export type DecodeResult<T> = { ok: true; value: Decoded<T> } | { ok: false; reason: string };

/**
 * Frames for one message: the header, then its raw frames. The header is an envelope
 * `{ v, raw, body }`, so the message is packed as it is: copying it into a new object to add the
 * version (an object spread) cost ~20 µs per message in place (bench/transport).
 */
export function encode(message: object, raw: readonly Buffer[] = NO_FRAMES): Buffer[] {
  const lengths = raw.length === 0 ? NO_LENGTHS : raw.map((r) => r.byteLength);
  const header = packr.pack({ v: PROTOCOL_VERSION, raw: lengths, body: message });
  return raw.length === 0 ? [header] : [header, ...raw];
}

/** Decodes and validates frames against one socket's schema; never throws. */
export function decode<S extends z.ZodType>(schema: S, frames: readonly Buffer[]): DecodeResult<z.infer<S>> {
  const headerFrame = frames[0];
  if (!headerFrame || headerFrame.byteLength === 0) return { ok: false, reason: 'empty message' };
  const raw = frames.length > 1 ? frames.slice(1) : NO_FRAMES;
  let header: unknown;
  try {
    header = packr.unpack(headerFrame);
  } catch (error) {
    return { ok: false, reason: `header is not msgpack (${(error as Error).message})` };
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    return { ok: false, reason: 'header is not a map' };
  }
  const { v, raw: rawLengths, body } = header as Record<string, unknown>;
  if (v !== PROTOCOL_VERSION) {
    return { ok: false, reason: `protocol version ${String(v)} (this process speaks ${PROTOCOL_VERSION})` };
  }
  if (
    !Array.isArray(rawLengths) ||
    rawLengths.length !== raw.length ||
    rawLengths.some((n, i) => n !== raw[i]?.byteLength)
  ) {
    return { ok: false, reason: `raw frames do not match the header (${raw.length} received)` };
  }
  // The fast check accepts what zod would return unchanged; anything else gets zod's verdict.
  const check = fastCheck(schema);
  if (check?.(body)) return { ok: true, value: { message: body, raw } };
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'message';
    const type =
      typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string'
        ? (body as { type: string }).type
        : '?';
    return { ok: false, reason: `invalid '${type}' at ${where}: ${issue?.message ?? 'does not validate'}` };
  }
  return { ok: true, value: { message: parsed.data, raw } };
}

const Claim = z.object({ workerId: WorkerId, key: Speaker.optional() });
/** What the act relay reads of a request or a reply to pair them: its episode and step. */
const Turn = z.object({ episodeId: z.string(), step: z.number().int().nonnegative() });

/** A header's body, this version's, unpacked without validating it; null when there is none. */
export function bodyOf(frames: readonly Buffer[]): unknown {
  const headerFrame = frames[0];
  if (!headerFrame || headerFrame.byteLength === 0) return null;
  let header: unknown;
  try {
    header = packr.unpack(headerFrame);
  } catch {
    return null;
  }
  if (typeof header !== 'object' || header === null) return null;
  const { v, body } = header as Record<string, unknown>;
  return v === PROTOCOL_VERSION ? body : null;
}

/**
 * The worker id and key a message names, read from its header without validating the rest: for a
 * relay that passes frames on undecoded but must hold them to their key (the act relay). Null when
 * the header names none, or is not this version's; the receiver's own decode rejects such a message.
 */
export function claimOf(frames: readonly Buffer[]): z.infer<typeof Claim> | null {
  const parsed = Claim.safeParse(bodyOf(frames));
  return parsed.success ? parsed.data : null;
}

/** The episode and step an act request or reply names, read as claimOf reads; null when none. */
export function turnOf(frames: readonly Buffer[]): z.infer<typeof Turn> | null {
  const parsed = Turn.safeParse(bodyOf(frames));
  return parsed.success ? parsed.data : null;
}
