// The order episodes start in when their tasks share sites (docs/envs.md, "Resets and task order").
// An episode that changes a site holds it alone: nothing else runs on that site while it runs, and
// it starts only when nothing is running there, so no task ever sees another's half-made change,
// and the site is reset before the next task on it starts. Episodes that only read a site share
// it. Order is kept per site: an episode waits behind an earlier waiting one it conflicts with, so
// a site-changing task is not starved by a stream of readers. Pure: the queue gives the lists.
import type { SiteClaim } from '../../envs/index.js';

/** Two episodes may not run at once: a site in common that one of them changes. */
export function conflicts(a: SiteClaim, b: SiteClaim): boolean {
  if (!a.changes && !b.changes) return false;
  return a.sites.some((s) => b.sites.includes(s));
}

/**
 * The index in `waiting` of the first episode that may start now, or -1 when none may. An episode
 * without a claim (`claimOf` null) runs anywhere, at any time.
 */
export function nextStartable<T>(
  waiting: readonly T[],
  running: readonly T[],
  claimOf: (episode: T) => SiteClaim | null,
): number {
  const held = running.flatMap((r) => {
    const c = claimOf(r);
    return c === null ? [] : [c];
  });
  const ahead: SiteClaim[] = [];
  for (let i = 0; i < waiting.length; i++) {
    const claim = claimOf(waiting[i] as T);
    if (claim === null) return i;
    if (!held.some((h) => conflicts(h, claim)) && !ahead.some((a) => conflicts(a, claim))) return i;
    ahead.push(claim);
  }
  return -1;
}
