// A trainable policy's inputs as its model encoded them (src/model/model-input.ts). The protocol
// carries them without knowing their layout: the model names the layout and versions it, and a
// receiver that does not know that layout or version refuses it (inference counts it, logs it and
// encodes the page itself). The bytes travel as the message's own raw frames, never inside the
// msgpack header, so a typed array can be laid over them.
import { z } from 'zod';
import { Count } from './fields.js';

export const ModelInput = z.object({
  /** the layout's name, as the model calls it */
  layout: z.string().min(1).max(64),
  /** the layout's version: frames of another shape or meaning are another version */
  version: z.number().int().positive(),
  /** the indices of the message's raw frames that hold it, in the layout's order */
  frames: z.array(Count).min(1).max(16),
});
export type ModelInput = z.infer<typeof ModelInput>;
