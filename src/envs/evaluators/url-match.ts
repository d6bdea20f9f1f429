// WebArena's URLEvaluator, with Python's urlparse / parse_qs reproduced.

interface ParsedUrl {
  base: string;
  query: Map<string, string[]>;
}

function unquotePlus(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Python decodes what it can and keeps malformed escapes as they are.
    return spaced.replace(/(%[0-9a-fA-F]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
  }
}

/** urllib.parse.parse_qs with keep_blank_values=False. */
export function parseQs(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const value = pair.slice(eq + 1);
    if (!value) continue;
    const k = unquotePlus(pair.slice(0, eq));
    const list = out.get(k) ?? [];
    list.push(unquotePlus(value));
    out.set(k, list);
  }
  return out;
}

/** netloc + path and the query of urllib.parse.urlparse (path without ";params"). */
export function parseUrl(url: string): ParsedUrl {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?/.exec(url);
  const netloc = m?.[2] ?? '';
  let path = m?.[3] ?? '';
  const lastSlash = path.lastIndexOf('/');
  const semi = path.indexOf(';', lastSlash + 1);
  if (semi >= 0) path = path.slice(0, semi);
  return { base: netloc + path, query: parseQs(m?.[4] ?? '') };
}

function cleanUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

export interface UrlMatchResult {
  score: number;
  why: string;
}

/** GOLD in PRED: some reference's netloc+path is a substring of the page's; each reference query key needs an allowed value. */
export function urlMatch(pageUrl: string, referenceUrl: string, urlNote = 'GOLD in PRED'): UrlMatchResult {
  if (urlNote !== 'GOLD in PRED') throw new Error(`Unknown matching rule: ${urlNote}`);
  const pred = parseUrl(cleanUrl(pageUrl));
  const refs = referenceUrl.split(' |OR| ').map((u) => parseUrl(cleanUrl(u)));
  const allowed = new Map<string, Set<string>>();
  for (const r of refs) {
    for (const [k, vs] of r.query) {
      const set = allowed.get(k) ?? new Set<string>();
      for (const v of vs) set.add(v);
      allowed.set(k, set);
    }
  }
  const baseHit = refs.find((r) => pred.base.includes(r.base));
  const baseScore = baseHit ? 1 : 0;
  const missing: string[] = [];
  for (const [k, values] of allowed) {
    const got = pred.query.get(k) ?? [];
    if (![...values].some((v) => got.includes(v))) missing.push(`${k}=${[...values].join('|')}`);
  }
  const score = baseScore * (missing.length === 0 ? 1 : 0);
  const why = [
    baseHit
      ? `page ${pred.base} contains ${baseHit.base}`
      : `page ${pred.base} contains none of ${refs.map((r) => r.base).join(' | ')}`,
    missing.length ? `query lacks ${missing.join(', ')}` : allowed.size ? 'query parameters match' : '',
  ]
    .filter(Boolean)
    .join('; ');
  return { score, why };
}
