// One HAR 1.2 entry written by hand, as a browser's trace would hold it (tests of WebArena-Verified's
// network checks and of `tti-run score`).
import type { HarEntry } from '../../src/envs/index.js';

export interface EntryOptions {
  headers?: Record<string, string>;
  /** a form body (application/x-www-form-urlencoded) */
  form?: string;
  /** a JSON body */
  json?: unknown;
  setCookie?: string;
  /** Chromium's resource type (default xhr); a document is a navigation */
  type?: string;
}

export function harEntry(method: string, url: string, status: number, o: EntryOptions = {}): HarEntry {
  const postData = o.form
    ? { mimeType: 'application/x-www-form-urlencoded', text: o.form }
    : o.json === undefined
      ? undefined
      : { mimeType: 'application/json', text: JSON.stringify(o.json) };
  return {
    startedDateTime: new Date().toISOString(),
    time: 1,
    request: {
      method,
      url,
      headers: Object.entries(o.headers ?? {}).map(([name, value]) => ({ name, value })),
      ...(postData ? { postData } : {}),
    },
    response: {
      status,
      headers: o.setCookie ? [{ name: 'Set-Cookie', value: o.setCookie }] : [],
      content: { mimeType: o.type === 'document' ? 'text/html' : 'application/json' },
    },
    _resourceType: o.type ?? 'xhr',
  };
}
