// A kept trajectory's edits that a later edit of the same field replaced are not what made it
// succeed. On the MiniWoB++ login stand-in, 27 of the 101 Type steps of seed 1's kept successes
// typed the password into Username (or the reverse) and were typed over later. Imitated, they
// taught the greedy policy the swap: login-form fell to 0.3 while the field-word fact pointed at
// the right field. Such steps stay in the trajectory (later steps' history saw them) but are not
// imitated. It is a rule of forms, not of a suite: an edit counts as replaced only when the same
// element, on the same page, is edited again with no navigation in between.
import { actionOfReply } from './candidates.js';
import { pageOf } from './detours.js';
import { trainingSteps } from './training-steps.js';
import type { TrainingStep, TrajectoryForTraining } from './types.js';

type Step = TrajectoryForTraining['steps'][number];

/** Actions that set a field's value: typing into it, choosing one of its options. */
const EDIT = /^(?:Type|Select) \[(\d+)\]/;

/** The element a step edits, or null when it edits none. */
function editedElement(step: Step): number | null {
  const m = EDIT.exec(actionOfReply(step.reply));
  return m ? Number(m[1]) : null;
}

/**
 * Indices of the steps whose edit a later step replaced: the same element is edited again and
 * every step between them observed the same page (an element id names a node of one document, so a
 * page left and come back to is not the same field). One pass from the end, remembering the
 * elements edited later on the page being walked.
 */
export function overwrittenEdits(trajectory: TrajectoryForTraining): Set<number> {
  const { steps } = trajectory;
  const out = new Set<number>();
  let editedLater = new Set<number>();
  for (let i = steps.length - 1; i >= 0; i--) {
    if (i + 1 < steps.length && pageOf(steps[i]!) !== pageOf(steps[i + 1]!)) editedLater = new Set();
    const element = editedElement(steps[i]!);
    if (element === null) continue;
    if (editedLater.has(element)) out.add(i);
    else editedLater.add(element);
  }
  return out;
}

/**
 * The steps filtered BC imitates of one trajectory: all of them, or without the edits typed over
 * later (`skipOverwrittenEdits`). The learner and `tti-run pretrain` both train on these.
 */
export function imitatedSteps(
  trajectory: TrajectoryForTraining,
  skipOverwrittenEdits: boolean,
): { steps: TrainingStep[]; skipped: number } {
  const all = trainingSteps(trajectory);
  if (!skipOverwrittenEdits) return { steps: all, skipped: 0 };
  const replaced = overwrittenEdits(trajectory);
  return { steps: all.filter((_, i) => !replaced.has(i)), skipped: replaced.size };
}
