// A kept trajectory's edits that a later edit of the same field replaced are not what made it
// succeed. On the MiniWoB++ login stand-in, 27 of the 101 Type steps of seed 1's kept successes
// typed the password into Username (or the reverse) and were typed over later. Imitated, they
// taught the greedy policy the swap: login-form fell to 0.3 while the field-word fact pointed at
// the right field. Such steps stay in the trajectory (later steps' history saw them) but are not
// imitated. It is a rule of forms, not of a suite: an edit counts as replaced only when the same
// element, on the same page, is edited again with no navigation in between.
import { actionOfReply } from './candidates.js';
import type { TrajectoryForTraining } from './types.js';

type Step = TrajectoryForTraining['steps'][number];

/** Actions that set a field's value: typing into it, choosing one of its options. */
const EDIT = /^(?:Type|Select) \[(\d+)\]/;

/** The element a step edits, or null when it edits none. */
function editedElement(step: Step): number | null {
  const m = EDIT.exec(actionOfReply(step.reply));
  return m ? Number(m[1]) : null;
}

/** The URL without its fragment: a page that only scrolls to an anchor is the same document. */
function pageOf(step: Step): string {
  const at = step.url.indexOf('#');
  return at >= 0 ? step.url.slice(0, at) : step.url;
}

/**
 * Indices of the steps whose edit a later step replaced: the same element is edited again and
 * every step between them observed the same page (an element id names a node of one document, so a
 * page left and come back to is not the same field).
 */
export function overwrittenEdits(trajectory: TrajectoryForTraining): Set<number> {
  const { steps } = trajectory;
  const out = new Set<number>();
  for (let i = 0; i < steps.length; i++) {
    const element = editedElement(steps[i]!);
    if (element === null) continue;
    const page = pageOf(steps[i]!);
    for (let k = i + 1; k < steps.length && pageOf(steps[k]!) === page; k++) {
      if (editedElement(steps[k]!) === element) {
        out.add(i);
        break;
      }
    }
  }
  return out;
}
