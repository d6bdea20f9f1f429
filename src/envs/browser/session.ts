import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/** The tabs of one episode: the context, the current page and a CDP session per page. */
export class EpisodeSession {
  readonly context: BrowserContext;
  current: Page;
  private readonly clients = new Map<Page, CDPSession>();
  private readonly inflight = new Map<Page, number>();
  private readonly lastActivity = new Map<Page, number>();
  crashed: string | null = null;

  constructor(context: BrowserContext, first: Page) {
    this.context = context;
    this.current = first;
    for (const p of context.pages()) this.track(p);
    context.on('page', (p) => this.track(p));
  }

  private track(page: Page): void {
    if (this.inflight.has(page)) return;
    this.inflight.set(page, 0);
    this.lastActivity.set(page, Date.now());
    const bump = (d: number) => {
      this.inflight.set(page, Math.max(0, (this.inflight.get(page) ?? 0) + d));
      this.lastActivity.set(page, Date.now());
    };
    page.on('request', () => bump(1));
    page.on('requestfinished', () => bump(-1));
    page.on('requestfailed', () => bump(-1));
    page.on('framenavigated', () => bump(0));
    page.on('crash', () => {
      this.crashed = `the tab crashed at ${page.url()}`;
    });
    page.on('close', () => {
      this.clients.delete(page);
    });
  }

  async client(page: Page = this.current): Promise<CDPSession> {
    let c = this.clients.get(page);
    if (!c) {
      c = await this.context.newCDPSession(page);
      this.clients.set(page, c);
    }
    return c;
  }

  pages(): Page[] {
    return this.context.pages();
  }

  /**
   * Waits until the page has loaded and its network has been quiet for `quietMs`, at most `capMs`
   * (a condition, not a fixed sleep: a static page settles in a few milliseconds).
   */
  async settle(capMs: number, quietMs = 50, page: Page = this.current): Promise<boolean> {
    const start = Date.now();
    const deadline = start + capMs;
    await page.waitForLoadState('load', { timeout: Math.max(1, capMs) }).catch(() => {});
    while (Date.now() < deadline && !page.isClosed()) {
      const idle = (this.inflight.get(page) ?? 0) === 0;
      // Counted from the call too: a click's navigation may not have sent its request yet.
      const quietFor = Date.now() - Math.max(start, this.lastActivity.get(page) ?? 0);
      if (idle && quietFor >= quietMs) {
        // A navigation that committed meanwhile must finish loading before we observe.
        return page
          .waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) })
          .then(() => true)
          .catch(() => false);
      }
      await new Promise((r) => setTimeout(r, Math.min(quietMs, 10)));
    }
    return false;
  }

  /**
   * Stops a navigation that is still pending. Chrome answers neither Runtime.evaluate nor
   * getFullAXTree while a provisional navigation waits on a silent server.
   */
  async stopLoading(page: Page = this.current): Promise<void> {
    if (page.isClosed()) return;
    const c = await this.client(page).catch(() => null);
    await c?.send('Page.stopLoading').catch(() => {});
  }
}
