// What the DOM says of the nodes the accessibility tree names: their boxes and whether they take
// clicks, from one layout snapshot (DOMSnapshot.captureSnapshot) or, as WebArena measures them, one
// getBoundingClientRect per node.
import type { CDPSession } from 'playwright-core';
import type { Bounds } from './ax-tree.js';

const RECT_FN = `function(...nodes) {
  return nodes.map((n) => {
    try {
      if (n.nodeType == 3) {
        const range = document.createRange();
        range.selectNode(n);
        const r = range.getBoundingClientRect().toJSON();
        range.detach();
        return [r.x, r.y, r.width, r.height];
      }
      const r = n.getBoundingClientRect().toJSON();
      return [r.x, r.y, r.width, r.height];
    } catch (e) {
      return null;
    }
  });
}`;

const OBJECT_GROUP = 'tti-observation';

export interface SnapshotDocument {
  nodes: {
    backendNodeId?: number[];
    parentIndex?: number[];
    nodeType?: number[];
    pseudoType?: { index: number[] };
    isClickable?: { index: number[] };
  };
  /** styles: per layout box, indices into `strings` of the computed styles asked for (cursor) */
  layout: { nodeIndex: number[]; bounds: number[][]; styles?: number[][] };
  scrollOffsetX?: number;
  scrollOffsetY?: number;
}

/** How far above a pointer-cursor text its click listener may sit (text → span → cell → row). */
const ROW_DEPTH = 4;

/** What one layout snapshot says of the measured nodes: their boxes and Chrome's isClickable. */
interface SnapshotReading {
  bounds: (Bounds | null)[];
  clickable: boolean[];
}

/**
 * The boxes getBoundingClientRect would give, from one layout snapshot: layout bounds are in
 * document coordinates, so the scroll offset comes off. A node with no layout box measures
 * [0,0,0,0] as getBoundingClientRect says for it; pseudo elements (list markers) stay unknown,
 * as resolveNode cannot reach them in WebArena's way. A text node is clickable when its parent
 * element is: a `<span>` with a click listener shows in the tree as its text (StaticText). It is
 * also when it shows the pointer cursor and an element above it takes clicks: an inbox's row
 * (`cursor: pointer`, its listener on the row's `<div>`, which the tree leaves out) shows only as
 * its texts, and a click on any of them opens the message.
 */
export async function readSnapshot(
  pending: Promise<{ documents: SnapshotDocument[]; strings?: string[] }>,
  backendIds: number[],
): Promise<SnapshotReading> {
  const snap = await pending;
  const doc = snap.documents[0];
  if (!doc) return { bounds: backendIds.map(() => null), clickable: backendIds.map(() => false) };
  const sx = doc.scrollOffsetX ?? 0;
  const sy = doc.scrollOffsetY ?? 0;
  const backend = doc.nodes.backendNodeId ?? [];
  const parents = doc.nodes.parentIndex ?? [];
  const types = doc.nodes.nodeType ?? [];
  const pseudo = new Set(doc.nodes.pseudoType?.index ?? []);
  const clickable = new Set(doc.nodes.isClickable?.index ?? []);
  const known = new Map<number, number>();
  backend.forEach((b, i) => {
    if (!pseudo.has(i)) known.set(b, i);
  });
  // An element split into several layout boxes measures as their union, like getBoundingClientRect.
  const boxes = new Map<number, [number, number, number, number]>();
  doc.layout.nodeIndex.forEach((ni, li) => {
    const b = doc.layout.bounds[li];
    if (!b || pseudo.has(ni)) return;
    const [x, y, w, h] = [b[0] ?? 0, b[1] ?? 0, b[2] ?? 0, b[3] ?? 0];
    const prev = boxes.get(ni);
    if (!prev) {
      boxes.set(ni, [x, y, x + w, y + h]);
      return;
    }
    boxes.set(ni, [
      Math.min(prev[0], x),
      Math.min(prev[1], y),
      Math.max(prev[2], x + w),
      Math.max(prev[3], y + h),
    ]);
  });
  const TEXT_NODE = 3;
  const strings = snap.strings ?? [];
  const pointer = new Set<number>();
  doc.layout.nodeIndex.forEach((ni, li) => {
    const cursor = doc.layout.styles?.[li]?.[0];
    if (cursor !== undefined && strings[cursor] === 'pointer') pointer.add(ni);
  });
  /** An element above `ni` takes clicks (a few levels: a row's texts sit in spans inside it). */
  const clickedAbove = (ni: number): boolean => {
    let a = parents[ni] ?? -1;
    for (let k = 0; a >= 0 && k < ROW_DEPTH; k++, a = parents[a] ?? -1) if (clickable.has(a)) return true;
    return false;
  };
  return {
    bounds: backendIds.map((id) => {
      const ni = known.get(id);
      if (ni === undefined) return null;
      const box = boxes.get(ni);
      if (!box) return [0, 0, 0, 0];
      return [box[0] - sx, box[1] - sy, box[2] - box[0], box[3] - box[1]];
    }),
    clickable: backendIds.map((id) => {
      const ni = known.get(id);
      if (ni === undefined) return false;
      if (clickable.has(ni)) return true;
      const parent = parents[ni] ?? -1;
      if (types[ni] !== TEXT_NODE || parent < 0) return false;
      return clickable.has(parent) || ((pointer.has(ni) || pointer.has(parent)) && clickedAbove(ni));
    }),
  };
}

/**
 * Bounds as WebArena gets them (DOM.resolveNode + getBoundingClientRect, a Range for text
 * nodes), but pipelined: the resolves go out together and one call measures every node.
 */
export async function perNodeBounds(client: CDPSession, backendIds: number[]): Promise<(Bounds | null)[]> {
  const resolved = await Promise.all(
    backendIds.map((backendNodeId) =>
      client
        .send('DOM.resolveNode', { backendNodeId, objectGroup: OBJECT_GROUP })
        .then((r) => r.object.objectId ?? null)
        .catch(() => null),
    ),
  );
  const live = resolved
    .map((id, i) => ({ id, i }))
    .filter((x): x is { id: string; i: number } => x.id !== null);
  const out: (Bounds | null)[] = backendIds.map(() => null);
  if (live.length > 0) {
    try {
      const res = await client.send('Runtime.callFunctionOn', {
        objectId: live[0]!.id,
        functionDeclaration: RECT_FN,
        arguments: live.map((x) => ({ objectId: x.id })),
        returnByValue: true,
      });
      const rects = res.result.value as (Bounds | null)[] | undefined;
      live.forEach((x, k) => {
        out[x.i] = rects?.[k] ?? null;
      });
    } catch {
      // a navigation mid-measure: every bound stays unknown, as WebArena's per-node error path does
    }
  }
  await client.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => {});
  return out;
}
