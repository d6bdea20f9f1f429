import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { findChromium } from './find-chromium.js';
import { isLocalPage, requestSchemeAllowed } from './navigation.js';

export const VIEWPORT = { width: 1280, height: 720 } as const;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchOptions {
  executablePath?: string;
  extraArgs?: string[];
  timeoutMs?: number;
}

/** One browser per env worker. */
export async function launchBrowser(opts: LaunchOptions = {}): Promise<Browser> {
  const executablePath = opts.executablePath ?? findChromium();
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(opts.extraArgs ?? [])],
    timeout: opts.timeoutMs ?? 30_000,
  });
}

export interface ContextOptions {
  /** A Playwright storage-state file (WebArena's .auth/*.json); it must exist when given. */
  storageState?: string | null;
  viewport?: { width: number; height: number };
  /**
   * Origins the pages may reach; others are aborted and reported to onBlocked. Empty = any web
   * origin. file:, chrome:, javascript: and other local schemes are refused either way.
   */
  allowedOrigins?: readonly string[];
  onBlocked?: (url: string) => void;
}

/** A fresh context per episode: no cookies or storage leak between episodes. */
export async function newEpisodeContext(
  browser: Browser,
  opts: ContextOptions = {},
): Promise<BrowserContext> {
  if (opts.storageState && !existsSync(opts.storageState)) {
    throw new Error(
      `storage state ${opts.storageState} does not exist (WebArena's .auth/<site>_state.json, made by its auto_login script)`,
    );
  }
  const context = await browser.newContext({
    viewport: opts.viewport ?? VIEWPORT,
    deviceScaleFactor: 1,
    storageState: opts.storageState ?? undefined,
  });
  const allowed = (opts.allowedOrigins ?? []).map((o) => new URL(o).origin);
  // Every request passes the scheme check, confined or not: file: is a request Chromium routes, and
  // its origin is "null", like data:'s, so an origin alone cannot tell them apart.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (requestSchemeAllowed(url)) {
      let origin = 'null';
      try {
        origin = new URL(url).origin;
      } catch {
        // an unparsable URL has no origin: refused below when the episode is confined
      }
      // data: and blob: (origin "null" or the page's own) are inline content, never another site
      const inline = url.startsWith('data:') || url.startsWith('blob:');
      if (allowed.length === 0 || inline || allowed.includes(origin)) return route.continue();
    }
    opts.onBlocked?.(url);
    return route.abort('blockedbyclient');
  });
  // chrome: pages are not routed: a page that reached one (or file:) is sent back to a blank one.
  const leave = (page: Page): void => {
    page.on('framenavigated', (frame) => {
      if (!isLocalPage(frame.url())) return;
      opts.onBlocked?.(frame.url());
      if (frame === page.mainFrame()) void page.goto('about:blank').catch(() => undefined);
    });
  };
  context.on('page', leave);
  return context;
}
