// Whether a task's login held. tti logs in by storage state (WebArena's .auth/<site>_state.json):
// a login has failed when that file is missing or unreadable, or when the start page, opened with
// it, was sent elsewhere to a page asking for a password (the site's sign-in form). That is the
// site's fault, not the policy's: the env worker marks its host unhealthy and gives the episode back.
// A start page that shows without a login (a shop's home) cannot tell; its task fails as before.
import { existsSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/** Why a storage state cannot log in (missing, not JSON, no cookies or storage), or null. */
export function storageStateProblem(file: string): string | null {
  if (!existsSync(file))
    return `storage state ${file} does not exist (WebArena's .auth/<site>_state.json, made by its auto_login script)`;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { cookies?: unknown; origins?: unknown };
    if (!Array.isArray(state.cookies) && !Array.isArray(state.origins))
      return `storage state ${file} has neither cookies nor origins`;
    return null;
  } catch (e) {
    return `storage state ${file} is not JSON: ${(e as Error).message}`;
  }
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return url;
  }
}

/** Null when the start page opened as asked, else how the login failed: sent to a password form. */
export async function signInPageReached(page: Page, startUrl: string): Promise<string | null> {
  const now = page.url();
  if (pathOf(now) === pathOf(startUrl)) return null;
  const asks = await page
    .locator('input[type="password"]')
    .count()
    .catch(() => 0);
  return asks > 0 ? `opening ${startUrl} with its login led to a sign-in page (${now})` : null;
}

/**
 * The login retried as a fresh episode would use it: a new context with the storage state, the
 * start page opened and checked. Null when it holds (the host may take tasks again).
 */
export async function probeLogin(
  browser: Browser,
  storageState: string,
  startUrl: string,
  timeoutMs: number,
): Promise<string | null> {
  const problem = storageStateProblem(storageState);
  if (problem !== null) return problem;
  const context = await browser.newContext({ storageState });
  try {
    const page = await context.newPage();
    await page.goto(startUrl, { timeout: timeoutMs, waitUntil: 'domcontentloaded' });
    return await signInPageReached(page, startUrl);
  } catch (e) {
    return `opening ${startUrl} with its login: ${(e as Error).message}`;
  } finally {
    await context.close().catch(() => undefined);
  }
}
