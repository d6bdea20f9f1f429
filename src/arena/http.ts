import { createHmac } from 'node:crypto';

/** A tiny synchronous router for the sites: handlers get a parsed request and return a response. */
export interface SiteRequest {
  method: string;
  /** Path inside the site, always starting with "/". */
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  /** The signed-in user of this site, or null. */
  user: string | null;
  /** The site's URL prefix (e.g. "/shop"). */
  base: string;
}

export interface SiteResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

export type Handler = (req: SiteRequest, params: string[]) => SiteResponse;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];
  get(pattern: RegExp, handler: Handler): this {
    this.routes.push({ method: 'GET', pattern, handler });
    return this;
  }
  post(pattern: RegExp, handler: Handler): this {
    this.routes.push({ method: 'POST', pattern, handler });
    return this;
  }
  handle(req: SiteRequest): SiteResponse {
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.pattern.exec(req.path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== req.method) continue;
      const params = m.slice(1).map((s) => decodeURIComponent(s ?? ''));
      return r.handler(req, params);
    }
    return pathMatched ? text(405, 'Method not allowed') : notFound(req.base);
  }
}

export function ok(body: string, headers: Record<string, string | string[]> = {}): SiteResponse {
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body };
}

export function text(status: number, body: string): SiteResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
}

export function redirect(location: string, headers: Record<string, string | string[]> = {}): SiteResponse {
  return { status: 303, headers: { location, ...headers }, body: '' };
}

export function notFound(base: string): SiteResponse {
  return {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Page not found</h1><p><a href="${base}/">Back to the home page</a></p></main></body></html>`,
  };
}

/** Signs a user name into a session cookie value, per site; verification is stateless so reset keeps sessions. */
export class SessionSigner {
  constructor(private readonly secret: string) {}
  sign(site: string, user: string): string {
    const mac = createHmac('sha256', this.secret).update(`${site}\n${user}`).digest('hex').slice(0, 24);
    return `${encodeURIComponent(user)}.${mac}`;
  }
  verify(site: string, value: string | undefined): string | null {
    if (!value) return null;
    const dot = value.lastIndexOf('.');
    if (dot < 0) return null;
    let user: string;
    try {
      user = decodeURIComponent(value.slice(0, dot));
    } catch {
      return null;
    }
    return this.sign(site, user) === value ? user : null;
  }
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

export function cookieName(site: string): string {
  return `miniarena_${site}_session`;
}

export function setSessionCookie(site: string, base: string, value: string | null): string {
  return value === null
    ? `${cookieName(site)}=; Path=${base}; HttpOnly; SameSite=Lax; Max-Age=0`
    : `${cookieName(site)}=${value}; Path=${base}; HttpOnly; SameSite=Lax`;
}

export function intParam(v: string | null, fallback: number): number {
  if (v === null) return fallback;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : fallback;
}
