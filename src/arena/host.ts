import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PAGE_SCRIPT_POLICY } from './html.js';
import {
  cookieName,
  parseCookies,
  type Router,
  SessionSigner,
  type SiteResponse,
  setSessionCookie,
} from './http.js';
import { type ArenaState, DEFAULT_SEED, pristineState } from './seed-data.js';
import type { SiteContext, SiteKey } from './sites/common.js';
import { FORUM_USER } from './sites/forum/data.js';
import { forumRoutes } from './sites/forum/routes.js';
import { SHOP_USER } from './sites/shop/data.js';
import { shopRoutes } from './sites/shop/routes.js';
import { TRACKER_USER } from './sites/tracker/data.js';
import { trackerRoutes } from './sites/tracker/routes.js';

/** URL path prefix of each site on a host. `__SHOPPING__` → origin + "/shop", and so on. */
export const SITE_PREFIX: Record<SiteKey, string> = { shop: '/shop', forum: '/forum', tracker: '/tracker' };

/** WebArena site name → MiniArena site. */
export const WEBARENA_SITES = {
  shopping: 'shop',
  reddit: 'forum',
  gitlab: 'tracker',
} as const satisfies Record<string, SiteKey>;
export type WebArenaSite = keyof typeof WEBARENA_SITES;

/** WebArena start_url / reference_url placeholders this host serves. */
export const PLACEHOLDERS = { __SHOPPING__: 'shopping', __REDDIT__: 'reddit', __GITLAB__: 'gitlab' } as const;

/** The default signed-in account of each site (WebArena's task accounts, by role). */
export const DEFAULT_ACCOUNTS: Record<
  WebArenaSite,
  { username: string; password: string; loginPath: string }
> = {
  shopping: { username: SHOP_USER, password: 'Password.123', loginPath: '/shop/login' },
  reddit: { username: FORUM_USER, password: 'test1234', loginPath: '/forum/login' },
  gitlab: { username: TRACKER_USER, password: 'hello1234', loginPath: '/tracker/users/sign_in' },
};

/**
 * The quiet window MiniArena's pages get: none. They run no script but a key handler (every
 * response's PAGE_SCRIPT_POLICY forbids any other), so once a page has loaded and no request or
 * navigation is pending nothing more changes it (session.ts's settle; the env default, 50 ms, is
 * for sites whose scripts fetch after load).
 */
export const MINIARENA_QUIET_MS = 0;

export const RESET_PATH = '/__miniarena/reset';
/**
 * WebArena-Verified's env-ctrl, per site: `/__env-ctrl/<reset token>/<site>` answers GET /health
 * (and /status, as its Python client asks) and POST /reset with its JSON `{success, message,
 * details}`. The token in the path stands for the header the reset route asks: env-ctrl's clients
 * send none, and a page in the browser must not reset its own site.
 */
export const ENV_CTRL_PREFIX = '/__env-ctrl';
export const RESET_TOKEN_HEADER = 'x-miniarena-reset-token';

export interface MiniArenaHostOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  hostname?: string;
  seed?: number;
  /** Secret the reset route requires in the `x-miniarena-reset-token` header; random when omitted. */
  resetToken?: string;
  /** Key that signs session cookies; random when omitted. Instances given the same key accept each
   *  other's cookies (cookies ignore the port), so one storage state can serve every instance. */
  sessionSecret?: string;
  /** How long an env-ctrl reset takes (WebArena's is a container restart): /health says 503 meanwhile. */
  envCtrlResetMs?: number;
}

/** A cookie in Playwright's storage-state shape. */
export interface StorageCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Lax' | 'Strict' | 'None';
}

export interface MiniArenaHost {
  /** e.g. "http://127.0.0.1:40123" */
  readonly origin: string;
  readonly port: number;
  /** Site base URLs under WebArena's names: shopping (shop), reddit (forum), gitlab (tracker). */
  readonly urls: Record<WebArenaSite, string>;
  /** Placeholder → base URL, for start_url / reference_url / program_html urls. */
  readonly placeholders: Record<keyof typeof PLACEHOLDERS, string>;
  readonly seed: number;
  readonly resetToken: string;
  /** Each site's env-ctrl base URL (GET {base}/health, POST {base}/reset), under WebArena's names. */
  readonly envCtrl: Record<WebArenaSite, string>;
  /** env-ctrl resets answered so far, per site (what a test checks against) */
  readonly envCtrlResets: Record<WebArenaSite, number>;
  /** Replaces every `__SHOPPING__` / `__REDDIT__` / `__GITLAB__` in `s` with this host's URLs. */
  resolve(s: string): string;
  /** Back to the seeded state (in memory, a clone of the pristine snapshot). */
  reset(): Promise<void>;
  /** Playwright storage state that signs the default account in to the given sites (all when omitted). */
  storageState(sites?: readonly WebArenaSite[]): { cookies: StorageCookie[]; origins: [] };
  close(): Promise<void>;
}

const MAX_BODY = 1 << 20;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, r: SiteResponse, started: number): void {
  res.statusCode = r.status;
  for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-security-policy', PAGE_SCRIPT_POLICY);
  res.setHeader('server-timing', `app;dur=${(performance.now() - started).toFixed(2)}`);
  res.end(r.body);
}

function tokenMatches(expected: string, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const INDEX = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MiniArena</title></head>
<body><main><h1>MiniArena</h1><p>Three small web sites for web agents.</p>
<ul><li><a href="/shop/">MiniShop</a> — an online store (WebArena: shopping)</li>
<li><a href="/forum/">Postmill Mini</a> — a discussion forum (WebArena: reddit)</li>
<li><a href="/tracker/">MiniTracker</a> — a project and issue tracker (WebArena: gitlab)</li></ul></main></body></html>
`;

/** Starts one MiniArena instance: all three sites on one port under path prefixes, with in-memory state. */
export async function startMiniArenaHost(options: MiniArenaHostOptions = {}): Promise<MiniArenaHost> {
  const seed = options.seed ?? DEFAULT_SEED;
  const resetToken = options.resetToken ?? randomBytes(24).toString('hex');
  const pristine = pristineState(seed);
  let state: ArenaState = structuredClone(pristine);
  const signer = new SessionSigner(options.sessionSecret ?? randomBytes(16).toString('hex'));

  const context = <K extends SiteKey>(site: K): SiteContext<ArenaState[K]> => ({
    state: () => state[site],
    signIn: (user) => setSessionCookie(site, SITE_PREFIX[site], signer.sign(site, user)),
    signOut: () => setSessionCookie(site, SITE_PREFIX[site], null),
  });
  const routers: Record<SiteKey, Router> = {
    shop: shopRoutes(context('shop')),
    forum: forumRoutes(context('forum')),
    tracker: trackerRoutes(context('tracker')),
  };
  // Only POST handlers change state, so a site no POST reached since the last reset is still pristine:
  // reset re-clones just the sites that were written to (all three after a full episode is rare).
  const dirty = new Set<SiteKey>();
  const reset = () => {
    for (const site of dirty) state = { ...state, [site]: structuredClone(pristine[site]) };
    dirty.clear();
  };
  const envCtrlResets: Record<WebArenaSite, number> = { shopping: 0, reddit: 0, gitlab: 0 };
  /** sites whose env-ctrl reset is still "restarting" (envCtrlResetMs), until then */
  const restarting = new Map<WebArenaSite, number>();
  const envCtrl = (method: string, rest: string): SiteResponse => {
    const json = (status: number, success: boolean, message: string, details: object = {}) => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ success, message, details }),
    });
    const m = /^\/([a-z_]+)\/(health|status|reset)$/.exec(rest);
    const name = m?.[1] as WebArenaSite | undefined;
    if (m === null || name === undefined || !(name in WEBARENA_SITES))
      return json(404, false, `no env-ctrl at ${rest}`);
    const action = m[2];
    if (action === 'reset') {
      if (method !== 'POST') return json(405, false, 'reset is POST');
      const site = WEBARENA_SITES[name];
      state = { ...state, [site]: structuredClone(pristine[site]) };
      dirty.delete(site);
      envCtrlResets[name] += 1;
      if ((options.envCtrlResetMs ?? 0) > 0) restarting.set(name, Date.now() + (options.envCtrlResetMs ?? 0));
      return json(200, true, `${name} reset`, { site: name });
    }
    if (method !== 'GET') return json(405, false, `${action} is GET`);
    const until = restarting.get(name) ?? 0;
    if (Date.now() < until) return json(503, false, `${name} is restarting`);
    return json(200, true, `${name} is healthy`, { site: name });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://miniarena.local');
    const method = req.method ?? 'GET';
    if (url.pathname === RESET_PATH) {
      if (!tokenMatches(resetToken, req.headers[RESET_TOKEN_HEADER]))
        return send(
          res,
          { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' },
          started,
        );
      if (method !== 'POST')
        return send(
          res,
          { status: 405, headers: { 'content-type': 'text/plain', allow: 'POST' }, body: '' },
          started,
        );
      reset();
      return send(res, { status: 204, headers: {}, body: '' }, started);
    }
    const ctrl = `${ENV_CTRL_PREFIX}/${resetToken}`;
    if (url.pathname.startsWith(`${ctrl}/`))
      return send(res, envCtrl(method, url.pathname.slice(ctrl.length)), started);
    if (url.pathname === '/' && method === 'GET')
      return send(
        res,
        { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: INDEX },
        started,
      );
    const site = (Object.keys(SITE_PREFIX) as SiteKey[]).find(
      (k) => url.pathname === SITE_PREFIX[k] || url.pathname.startsWith(`${SITE_PREFIX[k]}/`),
    );
    if (!site)
      return send(
        res,
        { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' },
        started,
      );
    const base = SITE_PREFIX[site];
    if (url.pathname === base)
      return send(res, { status: 308, headers: { location: `${base}/${url.search}` }, body: '' }, started);
    let form = new URLSearchParams();
    if (method === 'POST') {
      dirty.add(site);
      const type = String(req.headers['content-type'] ?? '');
      const body = await readBody(req);
      if (type.startsWith('application/x-www-form-urlencoded')) form = new URLSearchParams(body);
    }
    const user = signer.verify(site, parseCookies(req.headers.cookie).get(cookieName(site)));
    const r = routers[site].handle({
      method: method === 'HEAD' ? 'GET' : method,
      path: url.pathname.slice(base.length),
      query: url.searchParams,
      form,
      user,
      base,
    });
    send(res, r, started);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.statusCode = err instanceof Error && err.message === 'body too large' ? 413 : 500;
        res.setHeader('content-type', 'text/plain');
      }
      res.end('Internal error');
    });
  });
  server.keepAliveTimeout = 5_000;
  const hostname = options.hostname ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
  const urls: Record<WebArenaSite, string> = {
    shopping: `${origin}${SITE_PREFIX.shop}`,
    reddit: `${origin}${SITE_PREFIX.forum}`,
    gitlab: `${origin}${SITE_PREFIX.tracker}`,
  };
  const placeholders = { __SHOPPING__: urls.shopping, __REDDIT__: urls.reddit, __GITLAB__: urls.gitlab };
  const domain = hostname.includes(':') ? `[${hostname}]` : hostname;
  return {
    origin,
    port,
    urls,
    placeholders,
    seed,
    resetToken,
    envCtrl: {
      shopping: `${origin}${ENV_CTRL_PREFIX}/${resetToken}/shopping`,
      reddit: `${origin}${ENV_CTRL_PREFIX}/${resetToken}/reddit`,
      gitlab: `${origin}${ENV_CTRL_PREFIX}/${resetToken}/gitlab`,
    },
    envCtrlResets,
    resolve: (s) =>
      s.replace(/__(SHOPPING|REDDIT|GITLAB)__/g, (m) => placeholders[m as keyof typeof placeholders]),
    reset: async () => reset(),
    storageState: (sites = ['shopping', 'reddit', 'gitlab']) => ({
      cookies: sites.map((w) => {
        const site = WEBARENA_SITES[w];
        return {
          name: cookieName(site),
          value: signer.sign(site, DEFAULT_ACCOUNTS[w].username),
          domain,
          path: SITE_PREFIX[site],
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: 'Lax' as const,
        };
      }),
      origins: [],
    }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** `tti-run arena serve`: one instance for a person to browse. Logs the URLs and the reset token. */
export async function serveMiniArena(
  options: MiniArenaHostOptions & { log?: (line: string) => void } = {},
): Promise<MiniArenaHost> {
  const host = await startMiniArenaHost({ port: 7770, ...options });
  const log = options.log ?? ((line: string) => console.log(line));
  log(`MiniArena (seed ${host.seed}) at ${host.origin}/`);
  log(
    `  __SHOPPING__ = ${host.urls.shopping}  (sign in: ${DEFAULT_ACCOUNTS.shopping.username} / ${DEFAULT_ACCOUNTS.shopping.password})`,
  );
  log(
    `  __REDDIT__   = ${host.urls.reddit}  (sign in: ${DEFAULT_ACCOUNTS.reddit.username} / ${DEFAULT_ACCOUNTS.reddit.password})`,
  );
  log(
    `  __GITLAB__   = ${host.urls.gitlab}  (sign in: ${DEFAULT_ACCOUNTS.gitlab.username} / ${DEFAULT_ACCOUNTS.gitlab.password})`,
  );
  log(`  reset: curl -X POST -H '${RESET_TOKEN_HEADER}: ${host.resetToken}' ${host.origin}${RESET_PATH}`);
  log(`  env-ctrl (shopping): ${host.envCtrl.shopping}  (GET /health, POST /reset; reddit, gitlab alike)`);
  return host;
}

/** Resets a (possibly remote) MiniArena host through its token-guarded route. Throws unless it answers 204. */
export async function resetMiniArenaOverHttp(origin: string, resetToken: string): Promise<void> {
  const res = await fetch(`${origin}${RESET_PATH}`, {
    method: 'POST',
    headers: { [RESET_TOKEN_HEADER]: resetToken },
  });
  await res.arrayBuffer();
  if (res.status !== 204) throw new Error(`MiniArena reset at ${origin} failed: HTTP ${res.status}`);
}
