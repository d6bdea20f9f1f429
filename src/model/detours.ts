// Filtered BC imitates every step of a kept trajectory, its detours too: a first success that
// went shop home → account → home → a category → search teaches the greedy policy to open every
// shop task with that tour (experiments/old-suite; a fitted-prior run opened every shop task with
// product → account → search, and answered from wherever it landed: experiments/fitted-prior).
// Two kinds of step are not needed, when every step between changes nothing (link clicks, going
// back, scrolling, hovering, searching):
// - a detour: steps that leave a page and come back to it, so the steps after it could have been
//   taken before it;
// - a tour: steps that lead from a page to one whose next action the first page already offered,
//   a link to the same URL or a site search box of the same name. Taking it there reaches the
//   same page.
// Cutting them gives the trajectory the agent would have had without them: the same observations
// where it continues, an action history without the cut steps, and step numbers counted again.
// `learner.cut_detours` (default on; experiments/cut-detours: on MiniArena from random init greedy
// test episodes take half the steps, 4.5–5.4 against 9.9–13.7, and solve as many or a few more).
// One-page tasks (MiniWoB++) never leave their page, so nothing of theirs is cut. Before tours were cut,
// retraining a fresh policy on two runs' kept trajectories with detours cut solved 5 fewer and 2
// more of 294 test tasks than without cutting (experiments/retrain).
import { actionOfReply } from './candidates.js';
import type { TrajectoryForTraining } from './types.js';

type Step = TrajectoryForTraining['steps'][number];

const ELEMENT = /^(Click|Hover|Type) \[(\d+)\]/;

/** An action that leaves the sites' state as it was (it may change the page shown). */
export function leavesStateAlone(step: Step): boolean {
  const action = actionOfReply(step.reply);
  if (action === 'GoBack' || action.startsWith('Scroll [')) return true;
  const m = ELEMENT.exec(action);
  if (!m) return false;
  const at = step.nodes.ids.indexOf(Number(m[2]));
  const role = at >= 0 ? step.nodes.roles[at] : undefined;
  if (m[1] === 'Hover') return true;
  // A link is a GET; a search box submits a GET query. Buttons and other fields may change things.
  if (m[1] === 'Click') return role === 'link';
  return role === 'searchbox';
}

/** The URL a step observed, without its fragment (scrolling to an anchor is the same page). */
export function pageOf(step: Step): string {
  const at = step.url.indexOf('#');
  return at >= 0 ? step.url.slice(0, at) : step.url;
}

/**
 * Whether the trajectory goes back from `page` before it leaves it some other way: without the
 * detour, "back" would lead elsewhere (to the page before the detour, not its last page).
 */
function goesBackBeforeLeaving(steps: readonly Step[], from: number, page: string): boolean {
  for (let m = from; m < steps.length && pageOf(steps[m]!) === page; m++)
    if (actionOfReply(steps[m]!.reply) === 'GoBack') return true;
  return false;
}

const linkUrlsOf = new WeakMap<Step, Map<number, string>>();

/**
 * Link URLs by element id, read from the observation text ("[12] link 'Home' url: http://…"),
 * once per step: a step's page is compared with every later step of its tour.
 */
function linkUrls(step: Step): Map<number, string> {
  let out = linkUrlsOf.get(step);
  if (out === undefined) {
    out = new Map();
    for (const m of (step.observation ?? '').matchAll(/\[(\d+)\] link .* url: (\S+)$/gm))
      out.set(Number(m[1]), m[2]!);
    linkUrlsOf.set(step, out);
  }
  return out;
}

/**
 * The action that does on `page` what `later` did, when it provably leads to the same page: a
 * click on an in-view link to the same URL, or the same text typed into the one search box of
 * the same name (a site's search submits to one place from every page), where the text is the
 * task's or the page's (not read on the way). null when there is none, or when it is the element
 * `page`'s own step acted on (then where it leads was seen).
 */
function sameActionOn(page: Step, later: Step, intent: string): string | null {
  const action = actionOfReply(later.reply);
  const m = /^(Click|Type) \[(\d+)\](.*)$/s.exec(action);
  if (!m) return null;
  const id = Number(m[2]);
  const at = later.nodes.ids.indexOf(id);
  if (at < 0) return null;
  const role = later.nodes.roles[at];
  const { ids, roles, names, inViewport } = page.nodes;
  const name = later.nodes.names[at];
  // indices into the page's columns
  const onPage = ids.map((_, j) => j).filter((j) => roles[j] === role && inViewport[j] === 1);
  let found: number[];
  if (m[1] === 'Click' && role === 'link') {
    const url = linkUrls(later).get(id);
    if (url === undefined) return null;
    const here = linkUrls(page);
    found = onPage.filter((j) => here.get(ids[j]!) === url);
    // the same name too, where one has it: the likeliest of equals
    const named = found.filter((j) => names[j] === name);
    if (named.length > 0) found = named;
  } else if (m[1] === 'Type' && role === 'searchbox') {
    const text = /^ \[(.*?)\]/s.exec(m[3]!)?.[1] ?? '';
    if (!intent.includes(text) && !(page.observation ?? '').includes(text)) return null;
    found = onPage.filter((j) => names[j] === name);
    if (found.length !== 1) return null;
  } else return null;
  const own = ELEMENT.exec(actionOfReply(page.reply));
  const target = found[0] === undefined ? undefined : ids[found[0]];
  if (target === undefined || (own && Number(own[2]) === target)) return null;
  return `${m[1]} [${target}]${m[3]}`;
}

/**
 * The trajectory without its detours and tours: from each step, the farthest later step that is
 * reached only through state-preserving steps and is either back on the same page (continue from
 * there) or an action the step's own page offers too (take it there, continue after it). `cut`
 * counts the steps removed.
 */
export function withoutDetours(trajectory: TrajectoryForTraining): {
  trajectory: TrajectoryForTraining;
  cut: number;
} {
  const { steps } = trajectory;
  const kept: Step[] = [];
  let i = 0;
  while (i < steps.length) {
    const page = pageOf(steps[i]!);
    let back = -1;
    let tour: { at: number; action: string } | null = null;
    let left = false;
    for (let k = i + 1; k < steps.length && leavesStateAlone(steps[k - 1]!); k++) {
      const here = pageOf(steps[k]!);
      if (here !== page) left = true;
      else if (left && !goesBackBeforeLeaving(steps, k, page)) back = k;
      const action =
        here !== page && k + 1 < steps.length ? sameActionOn(steps[i]!, steps[k]!, trajectory.intent) : null;
      // going back after the tour's last step would lead to this page, not the one it left
      if (action !== null && !goesBackBeforeLeaving(steps, k + 1, pageOf(steps[k + 1]!)))
        tour = { at: k, action };
    }
    if (tour !== null && tour.at >= back) {
      kept.push({ ...steps[i]!, reply: `Action: ${tour.action}` });
      i = tour.at + 1;
      continue;
    }
    if (back > i) {
      i = back;
      continue;
    }
    kept.push(steps[i]!);
    i += 1;
  }
  return { trajectory: { ...trajectory, steps: kept }, cut: steps.length - kept.length };
}
