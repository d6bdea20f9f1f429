// Fields that several messages share: ids, counts, the speaker's key, and the hot columns of an
// observation, checked with one tight loop each. Internal to the protocol (index.ts exports none).
import { z } from 'zod';

export const WorkerId = z.string().min(1).max(128);

// Hot columns (an observation's node list) are checked with one tight loop instead of zod's
// per-element machinery: 1,200 elements cost ~1 µs this way against ~30 µs (bench/transport).
// A plain loop rather than `every(callback)`: it stays fast in a process that has been idle.
export const stringColumn = z.custom<string[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}, 'expected an array of strings');
export const intColumn = z.custom<number[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    // `(x | 0) === x` settles small integers without a call; Number.isInteger the rest.
    if (((x as number) | 0) !== x && !Number.isInteger(x)) return false;
  }
  return true;
}, 'expected an array of integers');
/** a column of 0/1 flags */
export const flagColumn = z.custom<number[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (v[i] !== 0 && v[i] !== 1) return false;
  return true;
}, 'expected an array of 0 and 1');
export const Count = z.number().int().nonnegative();
/** a chat model's token usage (chat policies only) */
export const TokenUsage = z.object({ promptTokens: Count, completionTokens: Count });

/**
 * The key a worker's message speaks with (speaker-proof.ts): in a run whose sockets take CURVE, the
 * receiver (the supervisor, replay, inference) drops a message whose worker id is not its key's;
 * absent in a run without CURVE.
 */
export const Speaker = z.object({ id: WorkerId, tag: z.string().max(128) });
