// The structure of an observation's tree that candidates and features share: each node's parent
// and subtree, the "row" it belongs to (a table row, one item of a list the tree flattened, a
// block with its own text), and in a table the header of each cell's column.
import type { NodeColumns } from './types.js';

/** Structure of the tree, computed once per observation and shared with the featurizer. */
export interface Tree {
  n: number;
  parent: Int32Array;
  /** Nodes in each node's subtree (itself included). */
  size: Int32Array;
  /**
   * The "row" a node belongs to, as a range of node indices [row, rowEnd): the nearest ancestor
   * with 2..ROW_MAX named nodes below it, or, in a list whose items the tree flattened, one item's
   * run of siblings. -1 when none.
   */
  row: Int32Array;
  rowEnd: Int32Array;
  /** 1 when the node's row is a run of siblings (its columns are offsets in the run). */
  segment: Uint8Array;
  /** In a table with column headers, the header of a cell's column (for the cell and what is in it); -1 elsewhere. */
  header: Int32Array;
}

const ROW_MAX = 14;

export function treeOf(nodes: NodeColumns): Tree {
  const n = nodes.ids.length;
  const parent = new Int32Array(n).fill(-1);
  const size = new Int32Array(n).fill(1);
  const named = new Int32Array(n);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = nodes.depths[i] ?? 0;
    while (stack.length > 0 && (nodes.depths[stack[stack.length - 1]!] ?? 0) >= d) stack.pop();
    parent[i] = stack.length > 0 ? stack[stack.length - 1]! : -1;
    stack.push(i);
  }
  // Children come after their parent, so a reverse pass accumulates subtree counts.
  for (let i = n - 1; i >= 0; i--) {
    if ((nodes.names[i] ?? '').trim()) named[i]! += 1;
    const p = parent[i]!;
    if (p >= 0) {
      size[p]! += size[i]!;
      named[p]! += named[i]!;
    }
  }
  const row = new Int32Array(n).fill(-1);
  const rowEnd = new Int32Array(n).fill(-1);
  const segment = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    for (let a = parent[i]!; a >= 0; a = parent[a]!) {
      if (named[a]! > ROW_MAX) break;
      if (named[a]! >= 2) {
        row[i] = a;
        rowEnd[i] = a + size[a]!;
        break;
      }
    }
  }
  // Flat lists: WebArena's cleaning drops empty listitems, so a list's items become one run of
  // siblings (link, price, rating, link, price, rating, …). Cut such a run at each child with the
  // role of its first child (a ListMarker when there is one): each piece is a row. A short list
  // (two search hits) is cut too, or its items would share one row and one context.
  const children = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p < 0) continue;
    const list = children.get(p);
    if (list) list.push(i);
    else children.set(p, [i]);
  }
  for (const [p, kids] of children) {
    if (kids.length < 4 || (named[p]! <= ROW_MAX && nodes.roles[p] !== 'list')) continue;
    const anchor = kids.some((k) => nodes.roles[k] === 'ListMarker') ? 'ListMarker' : nodes.roles[kids[0]!];
    let starts = kids.filter((k) => nodes.roles[k] === anchor);
    // An item that opens with two texts (an email's sender, then its subject, then its buttons)
    // starts at the first: a piece of anchors only joins the piece after it, unless every piece is
    // one (a plain list of links).
    const next = (k: number) => kids[kids.indexOf(k) + 1];
    const alone = starts.filter((m) => {
      const after = next(m);
      return after === undefined || nodes.roles[after] === anchor;
    });
    if (alone.length > 0 && alone.length < starts.length) {
      const joined = new Set(alone.map(next));
      starts = starts.filter((m) => !joined.has(m));
    }
    if (starts.length < 2) continue;
    starts.forEach((m, k) => {
      const end = k + 1 < starts.length ? starts[k + 1]! : p + size[p]!;
      let count = 0;
      for (let i = m; i < end; i++) if ((nodes.names[i] ?? '').trim()) count += 1;
      if (count > ROW_MAX) return;
      for (let i = m; i < end; i++) {
        // a row inside the piece (a table row in it, say) is tighter; keep it
        if (row[i]! > p) continue;
        row[i] = m;
        rowEnd[i] = end;
        segment[i] = 1;
      }
    });
  }
  // A block with no row above it (a review among many: "Review by Zoe Rossi" over its heading,
  // stars and text) is its own row, so its name is read with the text it heads.
  for (let i = 0; i < n; i++) {
    const own = (nodes.names[i] ?? '').trim() ? 1 : 0;
    if (row[i]! >= 0 || named[i]! - own < 2 || named[i]! > ROW_MAX) continue;
    if (nodes.roles[i] === 'RootWebArea') continue;
    row[i] = i;
    rowEnd[i] = i + size[i]!;
  }
  const header = new Int32Array(n).fill(-1);
  columnHeaders(nodes, size, header);
  return { n, parent, size, row, rowEnd, segment, header };
}

const TABLES = new Set(['table', 'grid', 'treegrid']);
export const CELLS = new Set(['cell', 'gridcell', 'rowheader']);

/**
 * Labels the cells of each table with their column's header (and what is inside a cell with the
 * same). The k-th cell of a row is in column k; where the tree flattened a table's rows, cells
 * are counted modulo the number of headers.
 */
function columnHeaders(nodes: NodeColumns, size: Int32Array, label: Int32Array): void {
  for (let t = 0; t < size.length; t++) {
    if (!TABLES.has(nodes.roles[t] ?? '')) continue;
    const end = t + size[t]!;
    const headers: number[] = [];
    for (let i = t + 1; i < end; i++) if (nodes.roles[i] === 'columnheader') headers.push(i);
    if (headers.length < 2) continue;
    let column = 0;
    for (let i = t + 1; i < end; i++) {
      const role = nodes.roles[i] ?? '';
      if (role === 'row') column = 0;
      else if (CELLS.has(role)) {
        const h = headers[column % headers.length]!;
        column += 1;
        if (!nodes.names[h]?.trim()) continue;
        for (let j = i; j < i + size[i]!; j++) label[j] = h;
      }
    }
  }
}
