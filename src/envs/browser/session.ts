import type { BrowserContext, CDPSession, Page, Request } from 'playwright-core';

/** How long a requested navigation counts as under way if Chrome never says it started. */
const NAVIGATION_START_GRACE_MS = 2000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the page's own CDP session says about its main frame's navigations. */
interface NavigationState {
  mainFrameId: string | null;
  /** When a navigation of the main frame in this tab was requested (a link click, a form), not started yet; 0 = none. */
  requestedAt: number;
  /** Between Page.frameStartedLoading and Page.frameStoppedLoading of the main frame. */
  loading: boolean;
}

/** The tabs of one episode: the context, the current page and a CDP session per page. */
export class EpisodeSession {
  readonly context: BrowserContext;
  current: Page;
  private readonly clients = new Map<Page, Promise<CDPSession>>();
  private readonly inflight = new Map<Page, number>();
  /**
   * Requests sent with a method that may change a site (not GET, HEAD or OPTIONS, which HTTP
   * calls safe): a step that sent none left the sites as they were, so its page can be reached
   * again by its URL, and a host it ran on needs no reset (the oracle's recording).
   */
  unsafeRequests = 0;
  private readonly lastActivity = new Map<Page, number>();
  private readonly navigation = new Map<Page, NavigationState>();
  crashed: string | null = null;
  /** What dispose() takes off again: a reused context outlives its session. */
  private readonly detach: (() => void)[] = [];

  constructor(context: BrowserContext, first: Page) {
    this.context = context;
    this.current = first;
    for (const p of context.pages()) this.track(p);
    const onPage = (p: Page) => this.track(p);
    context.on('page', onPage);
    this.detach.push(() => context.off('page', onPage));
  }

  private track(page: Page): void {
    if (this.inflight.has(page)) return;
    this.inflight.set(page, 0);
    this.lastActivity.set(page, Date.now());
    const bump = (d: number) => {
      this.inflight.set(page, Math.max(0, (this.inflight.get(page) ?? 0) + d));
      this.lastActivity.set(page, Date.now());
    };
    const onRequest = (request: Request) => {
      bump(1);
      if (!SAFE_METHODS.has(request.method())) this.unsafeRequests++;
    };
    const onDone = () => bump(-1);
    const onNavigated = () => bump(0);
    const onCrash = () => {
      this.crashed = `the tab crashed at ${page.url()}`;
    };
    const onClose = () => {
      this.clients.delete(page);
      this.navigation.delete(page);
    };
    page.on('request', onRequest);
    page.on('requestfinished', onDone);
    page.on('requestfailed', onDone);
    page.on('framenavigated', onNavigated);
    page.on('crash', onCrash);
    page.on('close', onClose);
    this.detach.push(() => {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
      page.off('framenavigated', onNavigated);
      page.off('crash', onCrash);
      page.off('close', onClose);
    });
    void this.watchNavigations(page);
  }

  /** Takes this session's listeners off the context and its pages and detaches its CDP sessions. */
  async dispose(): Promise<void> {
    for (const off of this.detach.splice(0)) off();
    const clients = [...this.clients.values()];
    this.clients.clear();
    this.navigation.clear();
    await Promise.all(clients.map((c) => c.then((s) => s.detach()).catch(() => {})));
  }

  /**
   * A click's navigation sends its first request only after Chrome has begun it, which on a busy
   * machine can be later than the quiet window: Page.frameRequestedNavigation arrives before the
   * click returns, and marks the page busy until the navigation starts loading (or is dropped).
   */
  private async watchNavigations(page: Page): Promise<void> {
    const state: NavigationState = { mainFrameId: null, requestedAt: 0, loading: false };
    try {
      const c = await this.client(page);
      const touch = () => this.lastActivity.set(page, Date.now());
      const main = (frameId: string) => state.mainFrameId === null || frameId === state.mainFrameId;
      c.on('Page.frameRequestedNavigation', (e) => {
        if (main(e.frameId) && e.disposition === 'currentTab') {
          state.requestedAt = Date.now();
          touch();
        }
      });
      const started = (e: { frameId: string }) => {
        if (!main(e.frameId)) return;
        state.requestedAt = 0;
        touch();
      };
      c.on('Page.frameStartedNavigating', started);
      c.on('Page.frameClearedScheduledNavigation', started);
      c.on('Page.frameStartedLoading', (e) => {
        if (!main(e.frameId)) return;
        state.requestedAt = 0;
        state.loading = true;
        touch();
      });
      c.on('Page.frameStoppedLoading', (e) => {
        if (!main(e.frameId)) return;
        state.requestedAt = 0;
        state.loading = false;
        touch();
      });
      this.navigation.set(page, state);
      const [, tree] = await Promise.all([c.send('Page.enable'), c.send('Page.getFrameTree')]);
      state.mainFrameId = tree.frameTree.frame.id;
    } catch {
      // a tab that closed or crashed meanwhile: settle() falls back on the network alone
      this.navigation.delete(page);
    }
  }

  /** True while the page's main frame has a navigation requested or loading. */
  private navigating(page: Page, now: number): boolean {
    const s = this.navigation.get(page);
    if (!s) return false;
    return s.loading || (s.requestedAt > 0 && now - s.requestedAt < NAVIGATION_START_GRACE_MS);
  }

  /** No request in flight and no navigation of the main frame requested or loading. */
  private idleAt(page: Page): boolean {
    return (this.inflight.get(page) ?? 0) === 0 && !this.navigating(page, Date.now());
  }

  client(page: Page = this.current): Promise<CDPSession> {
    let c = this.clients.get(page);
    if (!c) {
      c = this.context.newCDPSession(page);
      this.clients.set(page, c);
      c.catch(() => {
        if (this.clients.get(page) === c) this.clients.delete(page);
      });
    }
    return c;
  }

  pages(): Page[] {
    return this.context.pages();
  }

  /**
   * Waits until the page has loaded, no navigation of its main frame is pending and its network has
   * been quiet for `quietMs`, at most `capMs`
   * (a condition, not a fixed sleep: a static page settles as soon as it has been quiet that long).
   */
  async settle(capMs: number, quietMs = 50, page: Page = this.current): Promise<boolean> {
    const start = Date.now();
    const deadline = start + capMs;
    await page.waitForLoadState('load', { timeout: Math.max(1, capMs) }).catch(() => {});
    while (Date.now() < deadline && !page.isClosed()) {
      const idle = this.idleAt(page);
      // Counted from the call too: a click's navigation may not have sent its request yet.
      const quietFor = Date.now() - Math.max(start, this.lastActivity.get(page) ?? 0);
      if (idle && quietFor >= quietMs) {
        // A navigation that committed meanwhile must finish loading before we observe.
        const loaded = await page
          .waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) })
          .then(() => true)
          .catch(() => false);
        if (!loaded) return false;
        // (an oracle fix) Playwright may not have seen a document that has just committed, so
        // the wait above can resolve on the old one: ask the live document itself before observing
        // (else the observation is an empty "busy" RootWebArea).
        const complete = await this.documentComplete(page, deadline - Date.now());
        // The round trip went through the page's renderer, after anything the last action had it
        // do: a form's submission or a script's navigation is requested by now, and is waited for.
        if (complete && this.idleAt(page)) return true;
        if (complete) continue;
        await new Promise((r) => setTimeout(r, Math.max(1, Math.min(10, deadline - Date.now()))));
        continue;
      }
      // Quiet so far: sleep exactly until the window would close (activity meanwhile restarts it);
      // requests in flight: look again shortly.
      const wait = idle ? quietMs - quietFor : Math.min(quietMs, 10);
      await new Promise((r) => setTimeout(r, Math.max(1, Math.min(wait, deadline - Date.now()))));
    }
    return false;
  }

  /** document.readyState of the page's live main document is "complete" (false when it cannot tell). */
  private async documentComplete(page: Page, capMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((r) => {
      timer = setTimeout(() => r(false), Math.max(1, capMs));
    });
    const ask = this.client(page)
      .then((c) => c.send('Runtime.evaluate', { expression: 'document.readyState', returnByValue: true }))
      .then((r) => (r as { result: { value?: unknown } }).result.value === 'complete')
      .catch(() => false);
    return Promise.race([ask, late]).finally(() => clearTimeout(timer));
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
