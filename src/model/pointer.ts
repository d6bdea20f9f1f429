// The pointer candidates of a page that needs them (the task's offers say so: a suite reads it from
// the page, MiniWoB++'s needs.ts): a drag from one element onto another, a press-move-release from
// an element (or a text field's resize grip) to a point of the page, a click at a point, a drag
// across a text that selects it, and a stroke's press, moves and release at points. Points lie on a grid over the part of the page the elements
// cover, so nothing here knows a page: the same grid serves a slider, a canvas and a shape.
import type { Candidate } from './candidates.js';
import type { NodeColumns, PolicyInput } from './types.js';

/** Elements a drag starts from or ends on, at most (the first in the tree). */
const MAX_DRAG_NODES = 16;
/** A click's grid step, in CSS pixels: MiniWoB++'s 332×214 page is about 21 × 13 points. */
const CLICK_STEP = 16;
/** The grid a drag goes to: this many columns and rows over the elements' extent. */
const DRAG_GRID = { columns: 6, rows: 4 };

interface Box {
  i: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

function boxesOf(nodes: NodeColumns, visible: (i: number) => boolean): Box[] {
  const { x, y, w, h } = nodes;
  if (x === undefined || y === undefined || w === undefined || h === undefined) return [];
  const out: Box[] = [];
  for (let i = 0; i < nodes.ids.length; i++) {
    if (nodes.roles[i] === 'RootWebArea' || !visible(i)) continue;
    if ((w[i] ?? 0) <= 0 || (h[i] ?? 0) <= 0) continue;
    out.push({ i, x: x[i]!, y: y[i]!, w: w[i]!, h: h[i]! });
  }
  return out;
}

const r = (v: number) => Math.max(0, Math.round(v));

/** Points of a grid over the boxes' extent, `columns` × `rows`, each at its cell's centre. */
function grid(boxes: readonly Box[], step: { columns: number; rows: number } | number): [number, number][] {
  if (boxes.length === 0) return [];
  const right = Math.max(...boxes.map((b) => b.x + b.w));
  const bottom = Math.max(...boxes.map((b) => b.y + b.h));
  const columns = typeof step === 'number' ? Math.max(1, Math.floor(right / step)) : step.columns;
  const rows = typeof step === 'number' ? Math.max(1, Math.floor(bottom / step)) : step.rows;
  const out: [number, number][] = [];
  for (let row = 0; row < rows; row++)
    for (let column = 0; column < columns; column++)
      out.push([r(((column + 0.5) * right) / columns), r(((row + 0.5) * bottom) / rows)]);
  return out;
}

/** The smallest box holding the point: the element a point acts on (-1: none). */
function under(boxes: readonly Box[], [px, py]: [number, number]): number {
  let best = -1;
  let area = Number.POSITIVE_INFINITY;
  for (const b of boxes)
    if (px >= b.x && px < b.x + b.w && py >= b.y && py < b.y + b.h && b.w * b.h < area) {
      best = b.i;
      area = b.w * b.h;
    }
  return best;
}

/** Appends the pointer candidates the task's offers ask for (none when it asks for none). */
export function pushPointer(
  input: PolicyInput,
  visible: (i: number) => boolean,
  push: (c: Candidate) => void,
): void {
  const wanted = input.offers?.pointer ?? [];
  if (wanted.length === 0) return;
  const { nodes } = input;
  const boxes = boxesOf(nodes, visible);
  const name = (i: number) => (i >= 0 ? (nodes.names[i] ?? '').trim() : '');
  const centre = (b: Box): [number, number] => [r(b.x + b.w / 2), r(b.y + b.h / 2)];
  const mouseDrag = (from: [number, number], to: [number, number], node: number) =>
    push({
      kind: 'drag',
      action: `MouseDrag [${from[0]}] [${from[1]}] [${to[0]}] [${to[1]}]`,
      node,
      text: name(under(boxes, to)),
      source: 'point',
    });
  if (wanted.includes('drag')) {
    const ends = boxes.slice(0, MAX_DRAG_NODES);
    for (const a of ends)
      for (const b of ends)
        if (a.i !== b.i)
          push({
            kind: 'drag',
            action: `Drag [${nodes.ids[a.i]}] [${nodes.ids[b.i]}]`,
            node: a.i,
            text: name(b.i),
            source: 'node',
          });
    // What the tree does not show (a slider's thumb, a drop zone drawn as a plain box) is reached
    // by points: from each element's centre, and from a text field's corner (its resize grip), to
    // each point of a coarse grid.
    const targets = grid(boxes, DRAG_GRID);
    for (const a of ends) {
      const starts: [number, number][] = [centre(a)];
      if (nodes.roles[a.i] === 'textbox') starts.push([r(a.x + a.w - 2), r(a.y + a.h - 2)]);
      for (const from of starts) for (const to of targets) mouseDrag(from, to, a.i);
    }
  }
  if (wanted.includes('text_selection'))
    for (const b of boxes) {
      if (nodes.roles[b.i] !== 'StaticText' || name(b.i) === '') continue;
      // from just before its first character to just past its last line's end: the whole text
      mouseDrag([r(b.x - 1), r(b.y + Math.min(b.h / 2, 4))], [r(b.x + b.w + 1), r(b.y + b.h - 3)], b.i);
    }
  if (wanted.includes('stroke'))
    // a press, moves and a release, one a step: a stroke through as many grid points as it takes
    for (const p of grid(boxes, DRAG_GRID))
      for (const verb of ['MouseDown', 'MouseMove', 'MouseUp'])
        push({
          kind: 'drag',
          action: `${verb} [${p[0]}] [${p[1]}]`,
          node: under(boxes, p),
          text: name(under(boxes, p)),
          source: 'point',
        });
  if (wanted.includes('point'))
    for (const p of [...boxes.map(centre), ...grid(boxes, CLICK_STEP)]) {
      const node = under(boxes, p);
      push({
        kind: 'point',
        action: `MouseClick [${p[0]}] [${p[1]}]`,
        node,
        text: name(node),
        source: 'point',
      });
    }
}
