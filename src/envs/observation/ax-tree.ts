import type { CDPSession } from 'playwright-core';
import { VIEWPORT } from '../browser/launch.js';
import { pyRepr, pyStr } from '../python.js';
import { perNodeBounds, readSnapshot, type SnapshotDocument } from './dom-snapshot.js';

/** The subset of CDP's Accessibility.AXNode that WebArena reads. */
export interface CdpAxNode {
  nodeId: string;
  ignored?: boolean;
  role?: { type?: string; value?: unknown };
  name?: { type?: string; value?: unknown };
  properties?: { name: string; value: { type?: string; value?: unknown } }[];
  childIds?: string[];
  parentId?: string;
  backendDOMNodeId?: number;
}

/** [x, y, width, height] in viewport pixels, from getBoundingClientRect. */
export type Bounds = [number, number, number, number];

interface WorkNode extends CdpAxNode {
  bounds: Bounds | null;
  /** Chrome's DOMSnapshot isClickable for the node's DOM node (a text node: its parent element's) */
  clickable: boolean;
  removed: boolean;
  children: string[];
  parent: string | undefined;
}

export const IGNORED_ACTREE_PROPERTIES = [
  'focusable',
  'editable',
  'readonly',
  'level',
  'settable',
  'multiline',
  'invalid',
] as const;

const SKIPPED_EMPTY_ROLES = new Set([
  'generic',
  'img',
  'list',
  'strong',
  'paragraph',
  'banner',
  'navigation',
  'Section',
  'LabelText',
  'Legend',
  'listitem',
]);

export const IN_VIEWPORT_RATIO_THRESHOLD = 0.6;

export interface TreeOptions {
  /** Drop nodes outside the viewport (WebArena's current_viewport_only). */
  currentViewportOnly?: boolean;
  /** WebArena computes ow*oh/w*h (a precedence bug); "corrected" uses ow*oh/(w*h). */
  viewportRatio?: 'webarena' | 'corrected';
  /** TTI also drops the "url" property from lines. */
  ignoreUrlProperty?: boolean;
  /**
   * How element boxes are measured. "per-node" is WebArena's way (DOM.resolveNode and
   * getBoundingClientRect for each node: seconds on a big page); "snapshot" reads the same boxes
   * from one DOMSnapshot.captureSnapshot (tests check the two agree). Default "snapshot".
   */
  bounds?: 'snapshot' | 'per-node';
  /**
   * Print BrowserGym's extra properties on each line, after the name as BrowserGym writes them
   * (`[12] StaticText 'cursus', clickable, visible`). Off by default: WebArena's text is unchanged.
   */
  flags?: boolean;
  /** The page size in CSS pixels, for `visible` (default WebArena's 1280×720). */
  viewport?: { width: number; height: number };
}

/** BrowserGym's visibility threshold: at least this share of the box lies in the viewport. */
export const VISIBLE_SHARE = 0.5;

/** One line of the tree, as a trainable policy may read it. */
export interface ObservationNode {
  id: string;
  role: string;
  name: string;
  depth: number;
  bounds: Bounds | null;
  properties: Record<string, string>;
  /** Chrome's DOMSnapshot `isClickable` (a click listener, a link, a button…); a text node takes its parent element's. */
  clickable: boolean;
  /** the AX `focusable` property */
  focusable: boolean;
  /** the AX `editable` property (plain or rich text) */
  editable: boolean;
  /** BrowserGym's visibility: a box with at least half its area inside the viewport */
  visible: boolean;
  /**
   * Not in the episode's previous observation of the same document: a suggestion that appeared
   * after typing, a folder's files after its click, results after a search. Set by the env
   * (markFresh), which has that observation; false on a document's first observation.
   */
  fresh?: boolean;
}

/** What an id refers to within the step: enough to act on the element. */
export interface ElementRef {
  backendNodeId: number;
  bounds: Bounds | null;
  text: string;
}

export interface RenderedTree {
  text: string;
  nodes: ObservationNode[];
  elements: Map<string, ElementRef>;
}

function viewportRatio(
  b: Bounds,
  win: { width: number; height: number },
  formula: 'webarena' | 'corrected',
): number {
  const [x, y, w, h] = b;
  const ow = Math.max(0, Math.min(x + w, win.width) - Math.max(x, 0));
  const oh = Math.max(0, Math.min(y + h, win.height) - Math.max(y, 0));
  return formula === 'webarena' ? ((ow * oh) / w) * h : (ow * oh) / (w * h);
}

const SNAPSHOT_PARAMS = { computedStyles: ['cursor'], includeDOMRects: false };

/** Fetches the AX tree with bounds and applies WebArena's viewport pruning. */
export async function fetchAxTree(
  client: CDPSession,
  win: { width: number; height: number },
  opts: TreeOptions = {},
): Promise<WorkNode[]> {
  // The layout snapshot is requested right behind the tree (both in one round trip, taken back to
  // back on the same session) and read once the tree says what to measure. It gives the boxes (in
  // snapshot mode) and Chrome's isClickable (always).
  const tree = client.send('Accessibility.getFullAXTree', {}) as Promise<{ nodes: CdpAxNode[] }>;
  const snapshot = client.send('DOMSnapshot.captureSnapshot', SNAPSHOT_PARAMS) as Promise<{
    documents: SnapshotDocument[];
    strings?: string[];
  }>;
  // Awaited below; when the tree request fails first, the snapshot's rejection is not left unhandled.
  snapshot.catch(() => {});
  const { nodes: raw } = await tree;
  const seen = new Set<string>();
  const nodes: WorkNode[] = [];
  const ids: number[] = [];
  const toMeasure: WorkNode[] = [];
  for (const n of raw) {
    if (seen.has(n.nodeId)) continue;
    seen.add(n.nodeId);
    // Chrome after WebArena's time also lists InlineTextBox leaves (no DOM node, no children, the
    // parent's text repeated); rendering skips them and viewport pruning drops them, so they go now.
    if (n.role?.value === 'InlineTextBox' && !n.childIds?.length) continue;
    const w = n as WorkNode;
    w.bounds = null;
    w.clickable = false;
    w.removed = false;
    w.children = n.childIds ?? [];
    w.parent = n.parentId;
    nodes.push(w);
    if (n.backendDOMNodeId !== undefined && n.role?.value !== 'RootWebArea') {
      toMeasure.push(w);
      ids.push(n.backendDOMNodeId);
    }
  }
  const reading = await readSnapshot(snapshot, ids);
  const bounds = opts.bounds === 'per-node' ? await perNodeBounds(client, ids) : reading.bounds;
  for (let i = 0; i < toMeasure.length; i++) {
    toMeasure[i]!.bounds = bounds[i] ?? null;
    toMeasure[i]!.clickable = reading.clickable[i] ?? false;
  }
  for (const n of nodes)
    if (n.role?.value === 'RootWebArea' && n.backendDOMNodeId !== undefined) n.bounds = [0, 0, 10, 10];

  if (opts.currentViewportOnly) {
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const remove = (n: WorkNode) => {
      const parent = n.parent === undefined ? undefined : byId.get(n.parent);
      // WebArena splices the children into the parent's list where the node was.
      if (parent) {
        const at = parent.children.indexOf(n.nodeId);
        if (at >= 0) parent.children.splice(at, 1, ...n.children);
        for (const c of n.children) {
          const child = byId.get(c);
          if (child) child.parent = parent.nodeId;
        }
      }
      n.removed = true;
    };
    const ratioFormula = opts.viewportRatio ?? 'webarena';
    for (const n of nodes) {
      if (n === nodes[0]) {
        // The root has no parent to splice into; WebArena's root always has a bound.
        if (!n.bounds) continue;
      }
      if (!n.bounds) {
        remove(n);
        continue;
      }
      const [, , w, h] = n.bounds;
      if (w === 0 || h === 0) {
        remove(n);
        continue;
      }
      if (viewportRatio(n.bounds, win, ratioFormula) < IN_VIEWPORT_RATIO_THRESHOLD) remove(n);
    }
    return nodes.filter((n) => !n.removed);
  }
  return nodes;
}

/** BrowserGym's visibility: at least half the box's area lies inside the viewport. */
function isVisible(b: Bounds | null, viewport: { width: number; height: number }): boolean {
  if (b === null) return false;
  const [, , w, h] = b;
  if (w <= 0 || h <= 0) return false;
  return viewportRatio(b, viewport, 'corrected') >= VISIBLE_SHARE;
}

interface Entry {
  text: string;
  node: ObservationNode;
  /** a text that takes clicks where no line above it does (a <span> link): spared by the clean-up under flags */
  ownClick: boolean;
}

/** WebArena's parse_accessibility_tree: DFS lines "[id] role 'name' prop: value", depth tabs. */
export function renderAxTree(nodes: WorkNode[], opts: TreeOptions = {}): RenderedTree {
  const ignored = new Set<string>(IGNORED_ACTREE_PROPERTIES);
  const viewport = opts.viewport ?? VIEWPORT;
  if (opts.ignoreUrlProperty) ignored.add('url');
  const index = new Map(nodes.map((n, i) => [n.nodeId, i]));
  const entries: Entry[] = [];
  const elements = new Map<string, ElementRef>();

  /** `clickableAbove`: the nearest printed ancestor takes clicks (a button's own text adds nothing). */
  const visit = (i: number, depth: number, clickableAbove: boolean): void => {
    const node = nodes[i]!;
    let valid = true;
    const role = node.role?.value;
    const name = node.name?.value;
    // Chrome after WebArena's time also lists InlineTextBox leaves (no DOM node, text repeated);
    // WebArena's observations never had them (fetchAxTree drops the childless ones already).
    if (role === 'InlineTextBox') return;
    if (typeof role !== 'string' || typeof name !== 'string') {
      valid = false;
    } else {
      let line = `[${node.nodeId}] ${role} ${pyRepr(name)}`;
      const props: string[] = [];
      const propMap: Record<string, string> = {};
      let focusable = false;
      let editable = false;
      for (const p of node.properties ?? []) {
        if (p.name === 'focusable') focusable = p.value.value === true;
        else if (p.name === 'editable') editable = typeof p.value.value === 'string' && p.value.value !== '';
        if (ignored.has(p.name) || p.value.value === undefined) continue;
        const v = pyStr(p.value.value);
        props.push(`${p.name}: ${v}`);
        propMap[p.name] = v;
      }
      const visible = isVisible(node.bounds, viewport);
      // BrowserGym's extra properties come right after the name, comma-separated, as it prints them.
      if (opts.flags) {
        if (node.clickable) line += ', clickable';
        if (visible) line += ', visible';
      }
      if (props.length) line += ` ${props.join(' ')}`;
      if (!name.trim()) {
        if (props.length === 0) {
          if (SKIPPED_EMPTY_ROLES.has(role)) valid = false;
        } else if (role === 'listitem') valid = false;
      }
      if (valid) {
        entries.push({
          ownClick: node.clickable && !clickableAbove,
          text: `${'\t'.repeat(depth)}${line}`,
          node: {
            id: node.nodeId,
            role,
            name,
            depth,
            bounds: node.bounds,
            properties: propMap,
            clickable: node.clickable,
            focusable,
            editable,
            visible,
          },
        });
        // WebArena prints the line, then fails on a missing backend id: no mapping, children not indented.
        if (node.backendDOMNodeId === undefined) valid = false;
        else
          elements.set(node.nodeId, {
            backendNodeId: node.backendDOMNodeId,
            bounds: node.bounds,
            text: line,
          });
      }
    }
    for (const c of node.children) {
      const ci = index.get(c);
      if (ci === undefined) continue;
      visit(ci, valid ? depth + 1 : depth, valid ? node.clickable : clickableAbove);
    }
  };
  if (nodes.length > 0) visit(0, 0, false);
  // With BrowserGym's flags, a text that takes clicks itself (a <span> link) is an action's target,
  // not a repetition: WebArena's clean-up would drop a link word that running text before it contains.
  const kept = cleanTree(entries, Boolean(opts.flags));
  return { text: kept.map((e) => e.text).join('\n'), nodes: kept.map((e) => e.node), elements };
}

const STATIC_TEXT = /\[\d+\] StaticText '([^']+)'/;
const STATIC_TEXT_ANY_CASE = /statictext/i;

/**
 * WebArena's clean_accesibility_tree: drop a StaticText line whose text is in one of the 3 kept
 * lines before it (with `keepOwnClicks`, one that takes clicks itself stays).
 */
function cleanTree(entries: Entry[], keepOwnClicks: boolean): Entry[] {
  const lines: string[] = [];
  const out: Entry[] = [];
  for (const e of entries) {
    // A raw newline inside a property splits a line in WebArena's text; judge each piece.
    const kept: string[] = [];
    for (const line of e.text.includes('\n') ? e.text.split('\n') : [e.text]) {
      if (STATIC_TEXT_ANY_CASE.test(line)) {
        const m = STATIC_TEXT.exec(line);
        if (!m) continue;
        const text = m[1]!;
        const n = lines.length;
        const repeated =
          lines[n - 1]?.includes(text) || lines[n - 2]?.includes(text) || lines[n - 3]?.includes(text);
        if (!repeated || (keepOwnClicks && e.ownClick)) {
          lines.push(line);
          kept.push(line);
        }
      } else {
        lines.push(line);
        kept.push(line);
      }
    }
    if (kept.length) out.push({ ...e, text: kept.join('\n') });
  }
  return out;
}
