// A finished episode's browser context and tab, kept for the next episode (config.reuseContext):
// no new renderer process per episode. Only tasks confined to the allowed origins whose login is
// cookies alone start in it; others get a new context.
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { EpisodeSession } from './browser/session.js';
import type { BrowserEnvConfig } from './env-config.js';
import { closeQuietly, withTimeout } from './step-timeout.js';
import type { Task } from './tasks/task.js';

type Cookie = Parameters<BrowserContext['addCookies']>[0][number];

export class KeptContext {
  /** A finished episode's context and tab, for the next episode. */
  private kept: { context: BrowserContext; page: Page } | null = null;

  constructor(private readonly config: Readonly<BrowserEnvConfig>) {}

  /** Forgets the kept context without closing it (it died with its browser). */
  forget(): void {
    this.kept = null;
  }

  /** Whether a task may start in a kept context: confined to the allowed origins, logged in by cookies alone. */
  private reusable(task: Task, storageState: string | null): { cookies: Cookie[] } | null {
    const origins = this.config.allowedOrigins ?? [];
    if (!this.config.reuseContext || !task.confined || origins.length === 0) return null;
    if (storageState === null) return { cookies: [] };
    try {
      const state = JSON.parse(readFileSync(storageState, 'utf8')) as {
        cookies?: Cookie[];
        origins?: { localStorage?: unknown[] }[];
      };
      if ((state.origins ?? []).some((o) => (o.localStorage ?? []).length > 0)) return null;
      return { cookies: state.cookies ?? [] };
    } catch {
      return null; // a new context reports the file's problem
    }
  }

  /**
   * The kept context and tab, cleaned for a new episode: other tabs closed, the tab on about:blank,
   * cookies and the allowed origins' storage (local, session, IndexedDB, caches, service workers)
   * cleared, the task's login cookies added. Null (and the kept context closed) when the task needs
   * a new context or cleaning fails.
   */
  async take(
    browser: Browser,
    task: Task,
    storageState: string | null,
  ): Promise<{ context: BrowserContext; page: Page } | null> {
    const kept = this.kept;
    this.kept = null;
    if (kept === null) return null;
    const login = this.reusable(task, storageState);
    if (login === null || kept.page.isClosed() || !browser.isConnected()) {
      void closeQuietly(kept.context);
      return null;
    }
    try {
      await withTimeout(
        (async () => {
          for (const p of kept.context.pages()) if (p !== kept.page) await p.close();
          // sessionStorage belongs to the tab: clear it on the page that has it, then leave.
          await kept.page.evaluate('try { sessionStorage.clear() } catch {}').catch(() => {});
          // Committed is enough: the last episode's document is gone (about:blank has nothing to load),
          // and waiting for about:blank's load took half of this cleaning (docs/benchmarks.md).
          await kept.page.goto('about:blank', { waitUntil: 'commit' });
          await kept.context.clearCookies();
          // Just after about:blank commits the tab can still be changing documents, and a session
          // attached then is refused ("Not attached to an active page", 1–2 cleans in 80 measured): a
          // moment later a new one is not. A failed clean used to cost the episode a new context.
          for (let attempt = 0; ; attempt++) {
            try {
              await this.resetTab(kept.context, kept.page);
              break;
            } catch (error) {
              if (attempt === 2 || kept.page.isClosed()) throw error;
              await new Promise((r) => setTimeout(r, 10 + 20 * attempt));
            }
          }
          if (login.cookies.length > 0) await kept.context.addCookies(login.cookies);
        })(),
        10_000,
        'cleaning the kept context',
      );
      return kept;
    } catch {
      void closeQuietly(kept.context);
      return null;
    }
  }

  /** The tab's history reset and the allowed origins' storage cleared, over a CDP session of its own. */
  private async resetTab(context: BrowserContext, page: Page): Promise<void> {
    const cdp = await context.newCDPSession(page);
    try {
      // Only about:blank is left behind the start page, as in a new context's tab: Back from the
      // start page goes to about:blank in both (WebArena's), and an episode does not depend on
      // which it got (the first of each worker gets a new one, and which that is depends on timing).
      await cdp.send('Page.resetNavigationHistory');
      for (const origin of this.config.allowedOrigins ?? [])
        await cdp.send('Storage.clearDataForOrigin', { origin: new URL(origin).origin, storageTypes: 'all' });
    } finally {
      // the detach need not be waited for: nothing after it uses this session
      void cdp.detach().catch(() => {});
    }
  }

  /** After an episode: its context is kept for the next one (config.reuseContext) or closed (resolves once closed). */
  release(browser: Browser, session: EpisodeSession): Promise<void> {
    void session.dispose();
    const page = session.context.pages().find((p) => !p.isClosed());
    if (this.config.reuseContext && !session.crashed && page !== undefined && browser.isConnected()) {
      if (this.kept) void closeQuietly(this.kept.context);
      this.kept = { context: session.context, page };
      return Promise.resolve();
    }
    return closeQuietly(session.context);
  }

  /** Closes the kept context, if any. */
  async close(): Promise<void> {
    if (this.kept) await closeQuietly(this.kept.context);
    this.kept = null;
  }
}
