import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { findChromium } from './find-chromium.js';
import { isLocalPage, requestSchemeAllowed } from './navigation.js';
import { startRefusingProxy } from './refusing-proxy.js';

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
   * Origins the pages may reach; others are refused (refusing-proxy.ts) and reported to onBlocked.
   * Empty = any web origin. file:, chrome:, javascript: and other local schemes are refused either way.
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
  const allowed = (opts.allowedOrigins ?? []).map((o) => new URL(o).origin);
  const blocked = (url: string) => opts.onBlocked?.(url);
  // Confined: other origins go to a proxy that refuses them, with no request intercepted (and so
  // the HTTP cache on). Open web: every request is routed for its scheme alone.
  const proxy = allowed.length > 0 ? await startRefusingProxy(allowed, blocked) : null;
  const context = await browser
    .newContext({
      viewport: opts.viewport ?? VIEWPORT,
      deviceScaleFactor: 1,
      storageState: opts.storageState ?? undefined,
      ...(proxy ? { proxy: proxy.settings } : {}),
    })
    .catch(async (e: unknown) => {
      await proxy?.close();
      throw e;
    });
  if (proxy) {
    context.on('close', () => void proxy.close());
    // Chromium refuses a web page's own way to file: or chrome: (a request, a frame, a redirect);
    // the driver's (a start URL, goto) are refused before they are asked (refusedUrl), and a page
    // that reached one anyway is left below. A scheme refused here is reported the same way.
    context.on('requestfailed', (request) => {
      if (!requestSchemeAllowed(request.url())) blocked(request.url());
    });
  } else {
    // file: is a request Chromium routes, and its origin is "null", like data:'s, so an origin
    // alone cannot tell them apart: the scheme decides.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (requestSchemeAllowed(url)) return route.continue();
      blocked(url);
      return route.abort('blockedbyclient');
    });
  }
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
