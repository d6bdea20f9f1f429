// WebArena's early stops: an episode that reached its horizon, failed to parse or repeats itself
// ends before the next decision.
import { type ActionFormat, isEquivalent } from './actions/types.js';
import type { BrowserEnvConfig } from './env-config.js';
import type { EndReason } from './record.js';
import type { RunningEpisode } from './running-episode.js';

/**
 * WebArena's early stops, checked before the next decision: the horizon, parse failures, repeats.
 * WebArena answers "Early stop: …"; TTI's loop has no such answer (its episodes end on an ANSWER or
 * at max_iter with "N/A"), so in the TTI format every early stop leaves the last answer given, else
 * "N/A" — an early stop is not an answer, and the digit in "… for 3 times" must not pass a
 * `must_include: ["3"]`.
 */
export function earlyStop(
  ep: Pick<RunningEpisode, 'actions' | 'steps' | 'horizon' | 'lastAnswer'>,
  format: ActionFormat,
  limits: BrowserEnvConfig['earlyStop'],
): { reason: EndReason; answer: string } | null {
  const n = ep.actions.length;
  const stop = (reason: EndReason, webarena: string) => ({
    reason,
    // The last answer stands when re-checking ran out of steps.
    answer: ep.lastAnswer ?? (format === 'tti' ? 'N/A' : webarena),
  });
  if (n >= ep.horizon) return stop('horizon', `Early stop: Reach max steps ${ep.horizon}`);
  const k = limits?.parsingFailures ?? 3;
  if (k > 0 && n >= k && ep.actions.slice(-k).every((a) => a.type === 'none')) {
    return stop('early_stop', `Early stop: Failed to parse actions for ${k} times`);
  }
  const r = limits?.repeatedActions ?? 3;
  const last = ep.actions[n - 1];
  if (r > 0 && last) {
    if (last.type !== 'type') {
      // Scrolling on through a list longer than a few screens is progress, not a loop, while each
      // scroll still shows something new (checked before the last one's page is read: the one
      // before it moved the view); the repeat counts once a scroll changed nothing.
      const moved =
        last.type === 'scroll' && n >= 2 && ep.steps[n - 1]?.observation !== ep.steps[n - 2]?.observation;
      if (n >= r && !moved && ep.actions.slice(-r).every((a) => isEquivalent(a, last))) {
        return stop('early_stop', `Early stop: Same action for ${r} times`);
      }
    } else if (ep.actions.filter((a) => isEquivalent(a, last)).length >= r) {
      return stop('early_stop', `Early stop: Same typing action for ${r} times`);
    }
  }
  return null;
}
