// MiniWoB++'s episode protocol, as its core.js exposes it to a driver (and as BrowserGym drives it):
// seed Math.random, start the real episode behind the "START" cover, wait for WOB_TASK_READY, read
// the utterance; later read WOB_DONE_GLOBAL and the rewards. Runs in the page, so every expression
// is a string: the project's TypeScript has no DOM types and the globals are the page's own.
import type { Page } from 'playwright-core';
import { z } from 'zod';

/** What core.getUtterance() returns: a string, or for a few tasks { utterance, fields }. */
const Utterance = z.union([
  z.string(),
  z.looseObject({ utterance: z.string(), fields: z.record(z.string(), z.unknown()).optional() }),
]);

const PageResult = z.object({
  done: z.boolean(),
  raw: z.number(),
  reward: z.number(),
  reason: z.string().nullable(),
});
export type MiniwobPageResult = z.infer<typeof PageResult>;

/** What the start script gives back: what the page lacked, or the utterance. */
const Started = z.object({ missing: z.enum(['core', 'ready']).optional(), utterance: z.unknown() });

export class MiniwobProtocolError extends Error {
  override name = 'MiniwobProtocolError';
}

/**
 * BrowserGym's remove_human_display: the display a person watches (last reward, the last 10
 * average, time left, episodes done: #reward-display; #click-canvas; the START cover
 * #sync-task-cover) leaves the DOM, and #query's instruction is emptied (the agent gets it as the
 * intent). The page's own code writes into those elements, so core's getUtterance, endEpisode and
 * startEpisodeReal are wrapped to put them back for the length of each call and take them out again.
 */
const REMOVE_HUMAN_DISPLAY = `(() => {
  if (window.__ttiHumanDisplay) return;
  const ids = ['reward-display', 'click-canvas', 'sync-task-cover'];
  const held = [];
  const query = document.getElementById('query');
  let queryHtml = '';
  const hide = () => {
    held.length = 0;
    for (const id of ids) {
      const el = document.getElementById(id);
      if (el === null || el.parentNode === null) continue;
      held.push({ el, parent: el.parentNode, next: el.nextSibling });
      el.remove();
    }
    if (query !== null) { queryHtml = query.innerHTML; query.innerHTML = ''; }
  };
  const show = () => {
    for (const h of held.slice().reverse())
      h.parent.insertBefore(h.el, h.next !== null && h.next.parentNode === h.parent ? h.next : null);
    held.length = 0;
    if (query !== null) query.innerHTML = queryHtml;
  };
  for (const name of ['getUtterance', 'endEpisode', 'startEpisodeReal']) {
    const original = core[name];
    if (typeof original !== 'function') continue;
    core[name] = function (...args) {
      show();
      try { return original.apply(this, args); } finally { hide(); }
    };
  }
  window.__ttiHumanDisplay = true;
  hide();
})()`;

/**
 * Starts the episode for `seed`: the page's own timeout is pushed out to `maxTimeMs` first, so that
 * only the env's horizon ends an episode the page has not ended (BrowserGym does the same). With
 * `removeHumanDisplay` (BrowserGym's default) the human display is taken out of the page first.
 * Returns the instruction text.
 */
export async function startMiniwobEpisode(
  page: Page,
  seed: number,
  maxTimeMs: number,
  readyTimeoutMs: number,
  removeHumanDisplay = true,
): Promise<string> {
  // One round trip to the page: check, seed, start, wait for WOB_TASK_READY, read the utterance.
  const raw: unknown = await page.evaluate(
    `(async () => {
       if (!(typeof core === 'object' && core !== null && typeof core.startEpisodeReal === 'function' &&
             typeof Math.seedrandom === 'function')) return { missing: 'core' };
       ${removeHumanDisplay ? `${REMOVE_HUMAN_DISPLAY};` : ''}
       Math.seedrandom(${JSON.stringify(String(seed))});
       core.EPISODE_MAX_TIME = ${Math.floor(maxTimeMs)};
       core.startEpisodeReal();
       const until = Date.now() + ${Math.max(1, Math.floor(readyTimeoutMs))};
       while (window.WOB_TASK_READY !== true) {
         if (Date.now() > until) return { missing: 'ready' };
         await new Promise((resolve) => setTimeout(resolve, 5));
       }
       return { utterance: core.getUtterance() };
     })()`,
  );
  const started = Started.safeParse(raw);
  if (!started.success || started.data.missing === 'core')
    throw new MiniwobProtocolError(
      `${page.url()} has no MiniWoB++ core (core.startEpisodeReal and Math.seedrandom): is it a page of MiniWoB++'s html/miniwob/ folder?`,
    );
  if (started.data.missing === 'ready')
    throw new MiniwobProtocolError(`${page.url()} did not set WOB_TASK_READY within ${readyTimeoutMs} ms`);
  const parsed = Utterance.safeParse(started.data.utterance);
  if (!parsed.success)
    throw new MiniwobProtocolError(
      `core.getUtterance() gave ${JSON.stringify(started.data.utterance)}, not a string or {utterance}`,
    );
  return typeof parsed.data === 'string' ? parsed.data : parsed.data.utterance;
}

/** The page's verdict so far; a page without the globals reads as not done, reward 0. */
export async function readMiniwobResult(page: Page): Promise<MiniwobPageResult> {
  const raw: unknown = await page.evaluate(
    `({
       done: window.WOB_DONE_GLOBAL === true,
       raw: typeof window.WOB_RAW_REWARD_GLOBAL === 'number' ? window.WOB_RAW_REWARD_GLOBAL : 0,
       reward: typeof window.WOB_REWARD_GLOBAL === 'number' ? window.WOB_REWARD_GLOBAL : 0,
       reason: window.WOB_REWARD_REASON == null ? null : String(window.WOB_REWARD_REASON),
     })`,
  );
  return PageResult.parse(raw);
}

/** URLs compared without the fragment: tasks with href='#' links change only that. */
export function sameTaskPage(url: string, taskUrl: string): boolean {
  const strip = (u: string) => u.split('#')[0];
  return strip(url) === strip(taskUrl);
}
