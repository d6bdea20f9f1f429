// The observation's nodes as columns, the form a trainable policy reads them in (the act request's
// `observation.nodes`, the learner's trajectories). One function, so the env worker and anything that
// records demonstrations send the same columns.
import { freshIds } from '../../util/index.js';
import type { Bounds, ObservationNode } from './ax-tree.js';

/** The AX states a node's `states` column names, in this order. */
export const NODE_STATES = [
  'checked',
  'selected',
  'expanded',
  'pressed',
  'disabled',
  'focused',
  'required',
] as const;

export interface ObservationColumns {
  ids: number[];
  roles: string[];
  names: string[];
  depths: number[];
  /** 1 when the node's box intersects the viewport */
  inViewport: number[];
  /** 1 when Chrome's DOMSnapshot says the node takes clicks (a text node: its parent element) */
  clickable: number[];
  focusable: number[];
  editable: number[];
  /** 1 when at least half the box is in the viewport (BrowserGym's visibility) */
  visible: number[];
  /** the node's true states among NODE_STATES, space-separated in that order; '' when none */
  states: string[];
  /** 1 when the node was not in the episode's previous observation of this document */
  fresh: number[];
  /** the box in viewport CSS pixels, rounded; 0, 0, 0, 0 when unknown */
  x: number[];
  y: number[];
  w: number[];
  h: number[];
}

const TRUE = new Set(['True', 'true']);

/** The node's true AX states, space-separated in NODE_STATES order; a checked: mixed reads "mixed". */
export function nodeStates(properties: Readonly<Record<string, string>>): string {
  const out: string[] = [];
  for (const state of NODE_STATES) {
    const v = properties[state];
    if (v === undefined) continue;
    if (state === 'checked' && v === 'mixed') out.push('mixed');
    else if (TRUE.has(v) || (state === 'pressed' && v === 'mixed')) out.push(state);
  }
  return out.join(' ');
}

function intersects(b: Bounds | null, viewport: { width: number; height: number }): number {
  if (b === null) return 0;
  const [x, y, w, h] = b;
  return x < viewport.width && y < viewport.height && x + w > 0 && y + h > 0 ? 1 : 0;
}

const bit = (v: boolean) => (v ? 1 : 0);

/** Marks the nodes of `next` that the episode's `previous` observation did not have (freshIds). */
export function markFresh(
  previous: { url: string; nodes: readonly ObservationNode[] } | null,
  next: { url: string; nodes: ObservationNode[] },
): void {
  const fresh = freshIds(previous && { url: previous.url, ids: previous.nodes.map((n) => n.id) }, {
    url: next.url,
    ids: next.nodes.map((n) => n.id),
  });
  next.nodes.forEach((n, i) => {
    n.fresh = fresh[i]!;
  });
}

/** The columns of an observation's nodes, for a page of `viewport` CSS pixels. */
export function observationColumns(
  nodes: readonly ObservationNode[],
  viewport: { width: number; height: number },
): ObservationColumns {
  const box = (k: 0 | 1 | 2 | 3) => nodes.map((n) => (n.bounds === null ? 0 : Math.round(n.bounds[k]) || 0));
  return {
    ids: nodes.map((n) => Number(n.id)),
    roles: nodes.map((n) => n.role),
    names: nodes.map((n) => n.name),
    depths: nodes.map((n) => n.depth),
    inViewport: nodes.map((n) => intersects(n.bounds, viewport)),
    clickable: nodes.map((n) => bit(n.clickable)),
    focusable: nodes.map((n) => bit(n.focusable)),
    editable: nodes.map((n) => bit(n.editable)),
    visible: nodes.map((n) => bit(n.visible)),
    states: nodes.map((n) => nodeStates(n.properties)),
    fresh: nodes.map((n) => bit(n.fresh === true)),
    x: box(0),
    y: box(1),
    w: box(2),
    h: box(3),
  };
}
