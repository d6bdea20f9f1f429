// The actions the policy chooses among, built from one observation. A small, meaningful set is
// what makes a random-init policy explore usefully: click only what is visible and clickable,
// type only task phrases into visible text fields, answer only with texts the page shows (or the
// task quotes), and go back or scroll only when that can change something. Every action string is
// canonical, so rebuilding the candidates of a recorded step finds the chosen one by equality.
import { pushAnswers } from './answers.js';
import { phrasesOf } from './phrases.js';
import { pushPointer } from './pointer.js';
import { clean } from './text.js';
import { type NameInfo, nameInfo } from './text-memo.js';
import { type Tree, treeOf } from './tree.js';
import type { NodeColumns, PolicyInput } from './types.js';

export { intentPhrases } from './phrases.js';
export { type Tree, treeOf } from './tree.js';

/** `drag`: Drag [n] [m] and MouseDrag; `point`: MouseClick. Offered only where the page needs them. */
export const KINDS = [
  'click',
  'type',
  'hover',
  'select',
  'answer',
  'back',
  'scroll',
  'drag',
  'point',
] as const;
export type ActionKind = (typeof KINDS)[number];

/** How a candidate's text was made (a feature, and useful when reading the policy's choices). */
export const SOURCES = [
  'none',
  'node',
  'part',
  'column',
  'count',
  'intent',
  'done',
  'range',
  'point',
] as const;
export type TextSource = (typeof SOURCES)[number];

export interface Candidate {
  kind: ActionKind;
  /** The canonical TTI action string, e.g. "Click [42]", "Type [7] [Blue Mug]", "ANSWER [$12.50]". */
  action: string;
  /** Index into the node columns of the element acted on or whose text is answered; -1 if none. */
  node: number;
  /** The element's name (click, hover), the typed text (type), the answer (answer), else "". */
  text: string;
  source: TextSource;
}

export const CLICK_ROLES = new Set([
  'link',
  'button',
  'radio',
  'checkbox',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'combobox',
]);
export const TYPE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
/** Hover only where it can open something; elsewhere it is a wasted step. */
export const HOVER_ROLES = new Set(['menuitem', 'menubar', 'menu', 'tab']);
/** Whose options are in its subtree: a <select> (combobox) and a <select multiple> (listbox). */
const SELECT_ROLES = new Set(['combobox', 'listbox']);

/** The text after the last "Action:" of a reply: the action string the reply carries. */
export function actionOfReply(reply: string): string {
  const at = reply.lastIndexOf('Action:');
  return (at >= 0 ? reply.slice(at + 'Action:'.length) : reply).trim();
}

export interface CandidateSet {
  candidates: Candidate[];
  tree: Tree;
  phrases: readonly string[];
}

/** Candidates with the tree structure the featurizer reuses. */
export function buildCandidateSet(input: PolicyInput): CandidateSet {
  const { nodes } = input;
  const tree = treeOf(nodes);
  const phrases = phrasesOf(input.intent);
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const push = (c: Candidate) => {
    if (seen.has(c.action)) return;
    seen.add(c.action);
    out.push(c);
  };
  const visible = (i: number) => nodes.inViewport[i] === 1 && (nodes.visible?.[i] ?? 1) === 1;
  // Where the env says what can be clicked or edited (a <span> with a click handler shows as
  // text, a focus-only field as a textbox), every such node is a candidate too.
  const clickable = (i: number) => nodes.clickable?.[i] === 1 || nodes.focusable?.[i] === 1;
  const editable = (i: number) => nodes.editable?.[i] === 1;
  // One memo lookup per node name, however many times the name is used below.
  const infos: (NameInfo | undefined)[] = new Array(tree.n);
  const info = (i: number): NameInfo => {
    let v = infos[i];
    if (v === undefined) {
      v = nameInfo(nodes.names[i] ?? '');
      infos[i] = v;
    }
    return v;
  };
  const name = (i: number) => info(i).clean;
  // Options that a typed text brings up (an autocomplete's list) often take clicks through a handler
  // on their list, so no flag marks them: after a Type, a text that just appeared is clickable.
  const typed = /^Type\b/.test(input.history[input.history.length - 1] ?? '');
  const appeared = (i: number) =>
    typed && nodes.fresh?.[i] === 1 && nodes.roles[i] === 'StaticText' && name(i) !== '';

  for (let i = 0; i < tree.n; i++) {
    const role = nodes.roles[i] ?? '';
    if (!visible(i)) continue;
    const id = nodes.ids[i];
    if (CLICK_ROLES.has(role) || (role !== 'RootWebArea' && clickable(i)) || appeared(i))
      push({ kind: 'click', action: `Click [${id}]`, node: i, text: name(i), source: 'node' });
    if (TYPE_ROLES.has(role) || editable(i))
      for (const p of phrases) {
        const text = clean(p.replace(/[[\]]/g, ' '));
        push({ kind: 'type', action: `Type [${id}] [${text}]`, node: i, text, source: 'intent' });
      }
    if (HOVER_ROLES.has(role))
      push({ kind: 'hover', action: `Hover [${id}]`, node: i, text: name(i), source: 'node' });
    // A <select>: one candidate per option (its options are in its subtree, not on screen); on a
    // <select multiple> the env toggles the option, as a ctrl-click does
    if (SELECT_ROLES.has(role))
      for (let j = i + 1; j < i + tree.size[i]!; j++) {
        if (nodes.roles[j] !== 'option') continue;
        const text = clean((nodes.names[j] ?? '').replace(/[[\]]/g, ' '));
        if (text) push({ kind: 'select', action: `Select [${id}] [${text}]`, node: i, text, source: 'node' });
      }
  }

  pushAnswers({ input, tree, phrases, out, push, info });
  pushPointer(input, visible, push);

  if (input.history.length > 0 && input.offers?.navigation !== false)
    push({ kind: 'back', action: 'GoBack', node: -1, text: '', source: 'none' });
  const { above, below } = offscreen(nodes);
  if (below) push({ kind: 'scroll', action: 'Scroll [down]', node: -1, text: '', source: 'none' });
  if (above) push({ kind: 'scroll', action: 'Scroll [up]', node: -1, text: '', source: 'none' });
  return { candidates: out, tree, phrases };
}

/**
 * Whether part of the page lies above the viewport and below it: named nodes out of view, placed by
 * their boxes where the columns have them (a results list in its own scroll box comes before the
 * page's status lines in the tree), else by their place in the tree around what is in view.
 */
export function offscreen(nodes: NodeColumns): { above: boolean; below: boolean } {
  const n = nodes.ids.length;
  const named = (i: number) => nodes.roles[i] !== 'RootWebArea' && (nodes.names[i] ?? '').trim() !== '';
  let first = -1;
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (nodes.inViewport[i] === 1 && nodes.roles[i] !== 'RootWebArea') {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return { above: n > 1, below: n > 1 };
  const { y, h } = nodes;
  const seen = (i: number) => nodes.inViewport[i] === 1 && (nodes.visible?.[i] ?? 1) === 1;
  // the lowest edge of what is in view: below it is below (a node off to the side is neither)
  let bottom = 0;
  if (y !== undefined && h !== undefined)
    for (let i = 0; i < n; i++) if (seen(i)) bottom = Math.max(bottom, (y[i] ?? 0) + (h[i] ?? 0));
  let above = false;
  let below = false;
  for (let i = 0; i < n; i++) {
    if (seen(i) || !named(i)) continue;
    const top = y?.[i];
    const height = h?.[i] ?? 0;
    // a node with no box (0, 0, 0, 0: not rendered, a list marker) says nothing of where it is;
    // one cut by the viewport's edge (less than half shown) lies partly beyond it
    const placed = top !== undefined && (top !== 0 || height !== 0);
    if (placed ? top < 0 : i < first) above = true;
    else if (placed ? top + height > bottom + 1 : i > last) below = true;
  }
  return { above, below };
}

/** The candidate actions for one observation, in a deterministic order. */
export function buildCandidates(input: PolicyInput): Candidate[] {
  return buildCandidateSet(input).candidates;
}
