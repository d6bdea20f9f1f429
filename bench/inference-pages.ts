// The pages the inference benchmark's env-like clients send: the typical 300-node observation as
// page after page of one site, so that the worker's string memos (src/model/text-memo.ts) hit only
// what a next page of a site repeats (its header and menu), never a whole page seen before.
import type { Observation } from '../src/actors/protocol.js';

export const INTENT = 'What is the price of the Alderon Pro espresso machine?';

/** Nodes 0–29 are the site's header and menu, the same on every page; the rest is the page's content. */
const HEADER_NODES = 30;

/** The typical observation as page `tag` of the site: its content names are new, its header's are not. */
export function pageOf(base: Observation, tag: string): Observation {
  const names = base.nodes.names.map((n, i) => (n && i >= HEADER_NODES ? `${n} ${tag}` : n));
  // The text (what a chat-model policy would read) stays the typical page's: same size, and
  // rewriting it per request would make the clients, not the worker, the bench's bottleneck.
  return {
    ...base,
    nodes: { ...base.nodes, names },
  };
}
