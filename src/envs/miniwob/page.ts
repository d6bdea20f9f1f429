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

export class MiniwobProtocolError extends Error {
  override name = 'MiniwobProtocolError';
}

/**
 * Starts the episode for `seed`: the page's own timeout is pushed out to `maxTimeMs` first, so that
 * only the env's horizon ends an episode the page has not ended (BrowserGym does the same).
 * Returns the instruction text.
 */
export async function startMiniwobEpisode(
  page: Page,
  seed: number,
  maxTimeMs: number,
  readyTimeoutMs: number,
): Promise<string> {
  const hasCore = await page.evaluate(
    `typeof core === 'object' && core !== null && typeof core.startEpisodeReal === 'function' &&
     typeof Math.seedrandom === 'function'`,
  );
  if (hasCore !== true) {
    throw new MiniwobProtocolError(
      `${page.url()} has no MiniWoB++ core (core.startEpisodeReal and Math.seedrandom): is it a page of MiniWoB++'s html/miniwob/ folder?`,
    );
  }
  await page.evaluate(
    `Math.seedrandom(${JSON.stringify(String(seed))});
     core.EPISODE_MAX_TIME = ${Math.floor(maxTimeMs)};
     core.startEpisodeReal();`,
  );
  await page.waitForFunction('window.WOB_TASK_READY === true', undefined, { timeout: readyTimeoutMs });
  const raw: unknown = await page.evaluate('core.getUtterance()');
  const parsed = Utterance.safeParse(raw);
  if (!parsed.success)
    throw new MiniwobProtocolError(
      `core.getUtterance() gave ${JSON.stringify(raw)}, not a string or {utterance}`,
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
