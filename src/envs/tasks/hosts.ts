/** WebArena's host placeholders and the site each stands for. */
export const WEBARENA_PLACEHOLDERS: Readonly<Record<string, string>> = {
  shopping: '__SHOPPING__',
  shopping_admin: '__SHOPPING_ADMIN__',
  reddit: '__REDDIT__',
  gitlab: '__GITLAB__',
  map: '__MAP__',
  wikipedia: '__WIKIPEDIA__',
  homepage: '__HOMEPAGE__',
};

/**
 * Turns a host map keyed by site name (`shopping`) or by placeholder (`__SHOPPING__`) into
 * placeholder → base URL, trailing "/" stripped so "__SHOPPING__/x" stays a single slash.
 */
export function placeholderMap(hosts: Readonly<Record<string, string>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, url] of Object.entries(hosts)) {
    const placeholder = /^__[A-Z_]+__$/.test(key) ? key : WEBARENA_PLACEHOLDERS[key];
    if (!placeholder)
      throw new Error(
        `unknown WebArena site "${key}" in the host map (known: ${Object.keys(WEBARENA_PLACEHOLDERS).join(', ')})`,
      );
    // A host stands in every task's URLs: it must be a site's, as a URL in a task file must.
    if (!/^https?:\/\//i.test(url))
      throw new Error(`the host map's ${key} is ${JSON.stringify(url)}: a host must be an http(s) URL`);
    out.set(placeholder, url.replace(/\/+$/, ''));
  }
  return out;
}

/** Replaces every occurrence of each key in every string inside `value` (as WebArena's generator does on the whole file). */
export function rewriteStrings<T>(value: T, replacements: ReadonlyMap<string, string>): T {
  if (replacements.size === 0) return value;
  // Longest keys first so a key that prefixes another cannot win.
  const keys = [...replacements.keys()].sort((a, b) => b.length - a.length);
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let s = v;
      for (const k of keys) if (s.includes(k)) s = s.split(k).join(replacements.get(k));
      return s;
    }
    if (Array.isArray(v)) return v.map(visit);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    }
    return v;
  };
  return visit(value) as T;
}

/** Placeholders still present in a string, e.g. when no host was configured for them. */
export function unresolvedPlaceholders(s: string): string[] {
  return [...new Set(s.match(/__[A-Z][A-Z_]*__/g) ?? [])];
}

/** The origins of a host map, for BrowserEnvConfig.allowedOrigins. */
export function originsOf(hosts: Readonly<Record<string, string>>): string[] {
  return [...new Set(Object.values(hosts).map((u) => new URL(u).origin))];
}
