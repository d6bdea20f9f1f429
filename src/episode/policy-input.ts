// What the trainable policy reads of an act request: the same for the env worker that featurizes
// the page and for the inference worker that acts on it, so both see one input.
import type { PolicyInput } from '../model/without-tfjs.js';
import type { ActRequestMessage } from '../protocol/index.js';

/** `message` without its features, or with them: they are made from what this reads. */
export function policyInputOf(message: ActRequestMessage): PolicyInput {
  const o = message.observation;
  return {
    intent: message.intent,
    url: o.url,
    nodes: o.nodes,
    history: message.history,
    ...(message.policy === 'tfjs' ? { trail: message.trail } : {}),
    step: message.step,
    horizon: message.horizon,
    note: o.note,
    ...(message.offers ? { offers: message.offers } : {}),
  };
}
