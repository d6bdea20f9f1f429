// Where an episode has been and what it did there: an action names its element by role and name,
// not by id, since a page reload gives every element a new id. The env worker sends the trail with
// each act request; the policy leaves out what would redo an action on the page it was done on.
import type { Candidate } from './candidates.js';
import type { NodeColumns, PolicyInput } from './types.js';

/** The texts an episode's history typed (its canonical `Type [id] [text]` actions). */
export function textsTyped(history: readonly string[]): Set<string> {
  const texts = new Set<string>();
  for (const a of history) {
    const text = /^Type\s*\[\d+\]\s*\[([\s\S]*)\]$/.exec(a)?.[1];
    if (text !== undefined) texts.add(text);
  }
  return texts;
}

const WITH_ELEMENT = /^(Click|Type|Hover|Select)\s*\[(\d+)\]([\s\S]*)$/;

/**
 * The TTI action with its element id replaced by the element's role, name and, when the page has
 * several such elements (an "Upvote" button per post), which of them it is; an unknown id stays.
 */
export function actionSignature(action: string, nodes: NodeColumns): string {
  const m = WITH_ELEMENT.exec(action);
  return m ? signatureAt(m, nodes.ids.indexOf(Number(m[2])), nodes) : action;
}

/** The signature of a parsed action whose element is node `i` (-1: unknown, the action stays). */
function signatureAt(m: RegExpExecArray, i: number, nodes: NodeColumns): string {
  if (i < 0) return m[0];
  const role = nodes.roles[i];
  const name = nodes.names[i] ?? '';
  let nth = 0;
  for (let j = 0; j < i; j++) if (nodes.roles[j] === role && nodes.names[j] === name) nth++;
  return `${m[1]} [${role} ${JSON.stringify(name)}${nth > 0 ? ` #${nth + 1}` : ''}]${m[3]}`;
}

const UNDO: Record<string, string> = { 'Scroll [up]': 'Scroll [down]', 'Scroll [down]': 'Scroll [up]' };

/**
 * The candidates that would redo, on the same page (URL), a click, hover or typing the episode has
 * already done there, or undo the scroll it has just done. A deterministic policy in a state it has
 * seen does what it did: clicking a link to the page it is on reloads it (new ids, the same page)
 * and WebArena's "same action 3 times" stop never sees the same action; scrolling down and up
 * alternates. In one quick-preset run's early eval, 28 of 60 episodes ran to the horizon that way.
 * Scrolling on in one direction, answering and going back stay allowed.
 */
export function repeatsOnThisPage(candidates: readonly Candidate[], input: PolicyInput): Set<number> {
  const out = new Set<number>();
  const trail = input.trail;
  if (trail === undefined || trail.length === 0) return out;
  const doneHere = new Set(trail.filter((s) => s.url === input.url).map((s) => s.action));
  const last = trail[trail.length - 1]!;
  const undo = last.url === input.url ? UNDO[last.action] : undefined;
  candidates.forEach((c, i) => {
    if (c.kind === 'scroll') {
      if (c.action === undo) out.add(i);
    } else if (c.kind === 'click' || c.kind === 'hover' || c.kind === 'type') {
      // A candidate knows its node: no id lookup on this per-step path.
      const m = doneHere.size > 0 ? WITH_ELEMENT.exec(c.action) : null;
      if (m && doneHere.has(signatureAt(m, c.node, input.nodes))) out.add(i);
    }
  });
  return out;
}

/**
 * The candidates that would search again for a text the episode has already typed into a search
 * box: each search reloads the results page, the box gets a new id, and a policy that has learned
 * "search first" spends its horizon repeating searches (74% of one run's collection type steps;
 * docs/model.md). Only search boxes: typing a text again into a form (a title posted to three
 * forums) is how some tasks are done.
 */
export function repeatedSearches(candidates: readonly Candidate[], input: PolicyInput): Set<number> {
  const out = new Set<number>();
  const typed = textsTyped(input.history);
  if (typed.size === 0) return out;
  candidates.forEach((c, i) => {
    if (c.kind === 'type' && input.nodes.roles[c.node] === 'searchbox' && typed.has(c.text)) out.add(i);
  });
  return out;
}

/** What the policy leaves out (while anything else is left): repeated searches and repeats on this page. */
export function redundantActions(candidates: readonly Candidate[], input: PolicyInput): ReadonlySet<number> {
  const out = repeatedSearches(candidates, input);
  for (const i of repeatsOnThisPage(candidates, input)) out.add(i);
  return out;
}
