// The weights socket (learner PUB → inference SUB): a policy version's tensors as raw frames.
import { z } from 'zod';
import { Count } from './fields.js';

/** Describes one raw frame that follows the header. */
export const RawFrameSpec = z.object({
  name: z.string(),
  dtype: z.enum(['float32', 'int32', 'uint8', 'jpeg', 'png']),
  shape: z.array(Count),
});
export type RawFrameSpec = z.infer<typeof RawFrameSpec>;

// --- weights: learner PUB → inference SUB ---------------------------------------------------------

export const Weights = z.object({
  type: z.literal('weights'),
  policyVersion: Count,
  /** one spec per raw frame, in order */
  tensors: z.array(RawFrameSpec),
  /** a chat policy's new version is a served model name (no tensors) */
  model: z.string().optional(),
});

export type WeightsMessage = z.infer<typeof Weights>;

/** A typed view of a raw tensor frame; copies only when the frame is not aligned for the dtype. */
export function float32View(frame: Buffer): Float32Array {
  if (frame.byteOffset % 4 === 0)
    return new Float32Array(frame.buffer, frame.byteOffset, frame.byteLength / 4);
  return new Float32Array(frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength));
}
