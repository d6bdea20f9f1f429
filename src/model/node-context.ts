// What the encoder reads of a node's place on the page: its label (a column's header, the named
// node before it), its heading, a field's value, its rank among its like, and what its row and
// ancestors say.
import { BagBuilder, special } from './bag-builder.js';
import type { Tree } from './candidates.js';
import { BAG_CAP, type Bags } from './layout.js';
import { memoContent, memoTokens } from './match-words.js';
import type { TaskText } from './task-text.js';
import { clean } from './text.js';
import type { NodeColumns } from './types.js';

/**
 * A sign at either end of a name that words drop: a folder's "Docs/", a "+ Add", a "Close ×", a
 * "More ▾". Sentence punctuation says nothing of what an element does, so it is not one.
 */
export function edgeGlyph(name: string): string {
  const t = name.trim();
  if (!t) return '';
  for (const ch of [t[t.length - 1]!, t[0]!]) if (/[^\p{L}\p{N}\s.,:;!?'"()[\]]/u.test(ch)) return ch;
  return '';
}

const TEXT_ROLES = new Set([
  'StaticText',
  'heading',
  'term',
  'definition',
  'cell',
  'columnheader',
  'rowheader',
]);

export interface NodeContext {
  /**
   * A node's label: in a table with column headers, its column's header (a cell and what is in
   * it); otherwise the nearest preceding named node that is not an ancestor (a term, a "Price:").
   */
  label: Int32Array;
  /** nearest preceding heading */
  heading: Int32Array;
  /** the concatenated text of a node's descendants (a text field's value) */
  value: string[];
  /** rank among earlier nodes of the same role and name */
  rank: Int32Array;
  /** rank among earlier children of the same parent with the same role (results in a list) */
  siblingRank: Int32Array;
  /** how many share the node's role and name, and its parent and role */
  rankOf: Int32Array;
  siblingsOf: Int32Array;
}

export function nodeContext(nodes: NodeColumns, tree: Tree): NodeContext {
  const n = tree.n;
  const label = new Int32Array(n).fill(-1);
  const heading = new Int32Array(n).fill(-1);
  const rank = new Int32Array(n);
  const siblingRank = new Int32Array(n);
  const value: string[] = new Array(n).fill('');
  const siblings = new Map<string, number>();
  const keys: string[] = new Array(n);
  const siblingKeys: string[] = new Array(n);
  let lastNamed = -1;
  let lastHeading = -1;
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    // an ancestor of i precedes it; skip those
    let l = lastNamed;
    while (l >= 0 && l + tree.size[l]! > i) l = -1;
    label[i] = l;
    heading[i] = lastHeading;
    const name = nodes.names[i] ?? '';
    const key = `${nodes.roles[i]}\u0000${name}`;
    const k = seen.get(key) ?? 0;
    rank[i] = k;
    seen.set(key, k + 1);
    const sibling = `${tree.parent[i]}\u0000${nodes.roles[i]}`;
    siblingRank[i] = siblings.get(sibling) ?? 0;
    siblings.set(sibling, siblingRank[i]! + 1);
    keys[i] = key;
    siblingKeys[i] = sibling;
    if (name.trim() && nodes.roles[i] !== 'RootWebArea') {
      lastNamed = i;
      if (nodes.roles[i] === 'heading') lastHeading = i;
    }
  }
  const rankOf = new Int32Array(n);
  const siblingsOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    rankOf[i] = seen.get(keys[i]!)!;
    siblingsOf[i] = siblings.get(siblingKeys[i]!)!;
  }
  // in a table, a cell's label is its column's header
  for (let i = 0; i < n; i++) if (tree.header[i]! >= 0) label[i] = tree.header[i]!;
  for (let i = 0; i < n; i++) {
    if (tree.size[i]! <= 1 || TEXT_ROLES.has(nodes.roles[i] ?? '')) continue;
    const role = nodes.roles[i] ?? '';
    if (role !== 'textbox' && role !== 'searchbox' && role !== 'combobox' && role !== 'spinbutton') continue;
    const parts: string[] = [];
    for (let j = i + 1; j < i + tree.size[i]!; j++) if (nodes.names[j]) parts.push(nodes.names[j]!);
    value[i] = clean(parts.join(' '));
  }
  return { label, heading, value, rank, siblingRank, rankOf, siblingsOf };
}

/** The task's ordinal is the node's place among nodes like it (of two or more). */
export function ordinalPlace(task: TaskText, context: NodeContext, i: number): boolean {
  if (task.ordinals.size === 0) return false;
  return (
    (context.rankOf[i]! >= 2 && task.ordinals.has(context.rank[i]! + 1)) ||
    (context.siblingsOf[i]! >= 2 && task.ordinals.has(context.siblingRank[i]! + 1))
  );
}

/**
 * What a candidate's node shows around it, once per node (several candidates share a node): its
 * context bag and words (its row, three named ancestors, its heading), and the most of the task
 * its row quotes whole (`insideOf`).
 */
export function rowFacts(
  nodes: NodeColumns,
  tree: Tree,
  context: NodeContext,
  task: TaskText,
  buckets: number,
): { contextOf(i: number): { bag: Bags; words: string[] }; insideOf(i: number): number } {
  const taskContentCount = task.content.size;
  // A node's context words, once per node (several candidates share a node).
  const contextMemo = new Map<number, { bag: Bags; words: string[] }>();
  const contextOf = (i: number) => {
    let v = contextMemo.get(i);
    if (v) return v;
    const ctx = new BagBuilder(buckets, BAG_CAP.context);
    const words: string[] = [];
    const r = tree.row[i]!;
    if (r >= 0)
      for (let j = r; j < tree.rowEnd[i]!; j++) {
        if (j === i || !nodes.names[j]) continue;
        ctx.words(nodes.names[j]!);
        words.push(...memoContent.get(nodes.names[j]!));
      }
    let a = tree.parent[i]!;
    for (let up = 0; a >= 0 && up < 3; a = tree.parent[a]!) {
      if (!nodes.names[a] || nodes.roles[a] === 'RootWebArea') continue;
      ctx.add(special('role', nodes.roles[a] ?? ''));
      ctx.words(nodes.names[a]!);
      words.push(...memoContent.get(nodes.names[a]!));
      up += 1;
    }
    const h = context.heading[i]!;
    if (h >= 0 && h !== i) ctx.words(nodes.names[h]!);
    ctx.end();
    v = { bag: ctx.build(), words };
    contextMemo.set(i, v);
    return v;
  };
  // Whether a node's whole text (2+ words) appears in the task: a product or a post it names.
  const wholeInTask = new Map<number, number>();
  const whole = (j: number): number => {
    let v = wholeInTask.get(j);
    if (v === undefined) {
      const words = memoTokens.get(nodes.names[j] ?? '');
      v =
        words.length >= 2 && taskContentCount > 0 && task.lower.includes(` ${words.join(' ')} `)
          ? Math.min(1, memoContent.get(nodes.names[j] ?? '').length / taskContentCount)
          : 0;
      wholeInTask.set(j, v);
    }
    return v;
  };
  const insideMemo = new Map<number, number>();
  const insideOf = (i: number): number => {
    let v = insideMemo.get(i);
    if (v !== undefined) return v;
    v = whole(i);
    const r = tree.row[i]!;
    if (r >= 0) for (let j = r; j < tree.rowEnd[i]!; j++) if (nodes.names[j]) v = Math.max(v, whole(j));
    for (let a = tree.parent[i]!, up = 0; a >= 0 && up < 3; a = tree.parent[a]!, up++)
      if (nodes.roles[a] !== 'RootWebArea') v = Math.max(v, whole(a));
    insideMemo.set(i, v);
    return v;
  };
  return { contextOf, insideOf };
}
