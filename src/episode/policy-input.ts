// What the trainable policy reads of an act request: the same for the env worker that featurizes
// the page and for the inference worker that acts on it, so both see one input.
import type { PolicyInput } from '../model/without-tfjs.js';
import type { ActRequestMessage } from '../protocol/index.js';

export function policyInputOf(message: Omit<ActRequestMessage, 'features'>): PolicyInput {
  const o = message.observation;
  return {
    intent: message.intent,
    url: o.url,
    nodes: o.nodes,
    history: message.history,
    ...(message.trail ? { trail: message.trail } : {}),
    step: message.step,
    horizon: message.horizon,
    note: o.note,
    ...(message.offers ? { offers: message.offers } : {}),
  };
}
