// Scoring a stop without taking it. Where every evaluator of a task reads only the answer and the
// URL (string_match by exact_match or must_include, url_match), ending the episode here with an
// answer changes nothing the verdict reads, so the verdict of each answer the page offers can be
// Collection uses it as the cheapest branch of a search (`collect.stop_probes`): every stop of a
// page is tried, and a success found is the trajectory up to that page plus that stop. Tasks with
// a judge (fuzzy_match) are not probed: a judge costs a request per answer; nor program_html, which
// reads the sites' state (probing it in a second tab found no site-changing task from random init and
// made iterations 2–5× slower: experiments/action-tasks).
import type { Task } from '../tasks/task.js';
import { luckyPass } from './lucky.js';
import { stringMatch } from './string-match.js';
import { urlMatch } from './url-match.js';

export interface ProbedStop {
  /** whether stopping with this answer would be scored a success */
  success: boolean;
  /** why a must_include pass is luck, not an answer (it is then no success) */
  lucky?: string;
}

/**
 * What a probe of the task's stop reads: 'answer' (the stop's answer and the URL), 'url' (the URL
 * alone), or null when the verdict reads more (the sites' state) or it costs a judge. A task whose
 * verdict does not read the answer ('url') gives every answer one verdict.
 */
export type StopProbeKind = 'answer' | 'url';

export function stopProbeKind(task: Task): StopProbeKind | null {
  const ev = task.eval;
  if (!ev) return null;
  if (ev.reference_answers?.fuzzy_match !== undefined) return null;
  if (!ev.eval_types.every((k) => k === 'string_match' || k === 'url_match')) return null;
  return ev.eval_types.includes('string_match') ? 'answer' : 'url';
}

/**
 * Whether an answer's numbers are all counts under 100: "3", "(3)", "5 comments", "page 1",
 * "5 out of 5 stars". Nearly every page shows small numbers (a project's 3 milestones, another
 * post's 5 comments, a rating), so a probe that tries each finds the count a task asks for on
 * pages that do not answer it, even under the name of what the task asks about. Probes leave such
 * answers to the policy (src/search/stop-probes.ts).
 */
export function smallCount(answer: string): boolean {
  // numbers standing alone: the digits of a name ("WittyRaven4") are no count
  const numbers = answer.match(/(?<![\p{L}\d.,])\d+(?:[.,]\d+)*(?![\p{L}\d])/gu) ?? [];
  return numbers.length > 0 && numbers.every((n) => /^\d{1,2}$/.test(n));
}

/** The verdict of stopping with `answer` at `url`, for a task stopProbeKind calls 'answer' or 'url'. */
export async function probeStop(task: Task, answer: string, url: string): Promise<ProbedStop> {
  const ev = task.eval;
  const kind = stopProbeKind(task);
  if (!ev || kind === null)
    throw new Error(`task ${task.id}: its verdict cannot be probed from the answer and the URL`);
  for (const kind of ev.eval_types) {
    if (kind === 'url_match') {
      if (urlMatch(url, ev.reference_url ?? '', ev.url_note).score !== 1) return { success: false };
    } else {
      const r = await stringMatch(ev, task.intent, answer, undefined);
      if (r.score !== 1) return { success: false };
      const lucky = luckyPass(ev.reference_answers, answer);
      if (lucky) return { success: false, lucky };
    }
  }
  return { success: true };
}
