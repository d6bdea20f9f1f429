import type { MiniArenaHost } from '../../src/arena/index.js';

/** Shared helpers for the MiniArena tests (no tests here). */
export function cookieHeader(host: MiniArenaHost): string {
  return host
    .storageState()
    .cookies.map((c) => `${c.name}=${c.value}`)
    .join('; ');
}

export async function get(
  host: MiniArenaHost,
  pathOrUrl: string,
  opts: { cookie?: string; signedIn?: boolean } = {},
): Promise<{ status: number; body: string; location: string | null }> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${host.origin}${pathOrUrl}`;
  const cookie = opts.cookie ?? (opts.signedIn === false ? undefined : cookieHeader(host));
  const res = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  return { status: res.status, body: await res.text(), location: res.headers.get('location') };
}

export async function post(
  host: MiniArenaHost,
  path: string,
  form: Record<string, string | string[]>,
  opts: { cookie?: string; signedIn?: boolean } = {},
): Promise<{ status: number; location: string | null; setCookie: string | null }> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  const cookie = opts.cookie ?? (opts.signedIn === false ? undefined : cookieHeader(host));
  const res = await fetch(`${host.origin}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    redirect: 'manual',
  });
  await res.arrayBuffer();
  return {
    status: res.status,
    location: res.headers.get('location'),
    setCookie: res.headers.get('set-cookie'),
  };
}

/** Visible text of an HTML page: tags stripped, entities decoded, whitespace collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
