// Which URLs an episode's browser may open. A task file or the policy's `goto` names a URL, and a
// page may try to go anywhere: only the web's schemes are let through. file: would put the run's
// keys, token or ~/.ssh into observations (and from there replay, SFT exports and a chat endpoint);
// chrome: and the like show the browser's own pages; javascript: runs script in whatever page is
// open. Chromium itself refuses a web page's own navigation to file: or chrome:, but not one the
// driver asks for (a start URL, `goto`), so those are checked here before they are asked for.
/** What a task may name and `goto` may open, unless a suite widens it. */
export const WEB_SCHEMES: readonly string[] = ['http:', 'https:'];

/**
 * Schemes a page's requests may use (subresources and frames): the web's, its sockets, inline
 * content. file:, chrome:, javascript: and the rest are refused.
 */
const REQUEST_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:', 'data:', 'blob:']);

/** Schemes whose page is the machine's or the browser's, never a site's: left at once if reached. */
const LOCAL_SCHEMES = new Set([
  'file:',
  'chrome:',
  'chrome-extension:',
  'chrome-untrusted:',
  'devtools:',
  'view-source:',
  'javascript:',
  'filesystem:',
]);

function schemeOf(url: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim());
  return m === null ? null : `${m[1]!.toLowerCase()}:`;
}

/** Why `url` may not be opened by the driver (a start URL, `goto`); null when it may. */
export function refusedUrl(url: string, schemes: readonly string[] = WEB_SCHEMES): string | null {
  const scheme = schemeOf(url);
  if (scheme === null) return `${JSON.stringify(url.slice(0, 80))} is not an absolute URL`;
  if (schemes.includes(scheme)) return null;
  return `${scheme} URLs are refused (${JSON.stringify(url.slice(0, 80))}): only ${schemes.join(' and ')} are allowed`;
}

/** A page's request of this URL may go on (scheme only; origins are the caller's). */
export const requestSchemeAllowed = (url: string): boolean => REQUEST_SCHEMES.has(schemeOf(url) ?? '');

/** A page that shows this URL has left the web (file:, chrome:, …). */
export const isLocalPage = (url: string): boolean => LOCAL_SCHEMES.has(schemeOf(url) ?? '');
