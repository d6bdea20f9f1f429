// WebArena-Verified's URLs in network events: a base (scheme, host, path; the deployment's hosts
// written back as placeholders such as __GITLAB__) and query parameters, with ignored parameters
// dropped, base64 query strings in the path decoded where asked, patterns (^…$) on either side, and a
// small JSONPath for post data and response keys ($.a.b, $['a-b'], $.a[0], $.^key pattern$).
import { isPattern, normalizeText } from './verified-values.js';

export interface NormalizedUrl {
  /** placeholder form, e.g. __GITLAB__/a/b (lower-case scheme and host, no trailing /), or a ^…$ pattern */
  base: string;
  query: Map<string, string[]>;
}

export interface UrlOptions {
  ignored?: readonly string[] | null;
  ignoredPatterns?: readonly string[] | null;
  decodeBase64?: boolean;
  /** the deployment's base URLs back to placeholders */
  derender: (s: string) => string;
}

function ignoredKey(key: string, o: UrlOptions): boolean {
  if (o.ignored?.includes(key)) return true;
  return (o.ignoredPatterns ?? []).some((p) => {
    try {
      return new RegExp(p).test(key);
    } catch {
      return false;
    }
  });
}

/**
 * A path segment holding a base64 query string ("a=1&b=2"), decoded; null when it is not one.
 * Magento writes it URL-safe, with "," for the padding "=".
 */
function base64Query(segment: string): URLSearchParams | null {
  if (segment.length < 8 || !/^[A-Za-z0-9+/_-]+[=,]{0,2}$/.test(segment)) return null;
  const text = Buffer.from(
    segment.replace(/-/g, '+').replace(/_/g, '/').replace(/,/g, '='),
    'base64',
  ).toString('utf8');
  if (!/^[\x20-\x7E]+$/.test(text) || !/^[^=&]+=[^&]*(&[^=&]+=[^&]*)*$/.test(text)) return null;
  return new URLSearchParams(text);
}

/** A URL (a deployment's, or a reference's with placeholders) in the normalised form. */
export function normalizeUrl(
  raw: string,
  o: UrlOptions,
  queryParams?: Record<string, (string | null)[]> | null,
) {
  const query = new Map<string, string[]>();
  const add = (k: string, v: string): void => {
    if (!ignoredKey(k, o)) query.set(k, [...(query.get(k) ?? []), v]);
  };
  if (isPattern(raw)) {
    for (const [k, vs] of Object.entries(queryParams ?? {})) for (const v of vs) add(k, v ?? '');
    return { base: raw, query };
  }
  const text = o.derender(raw.trim());
  const q = text.indexOf('?');
  const hash = text.indexOf('#');
  const end = hash === -1 ? text.length : hash;
  let path = q === -1 ? text.slice(0, end) : text.slice(0, q);
  const search = q === -1 ? '' : text.slice(q + 1, end < q ? text.length : end);
  if (queryParams) for (const [k, vs] of Object.entries(queryParams)) for (const v of vs) add(k, v ?? '');
  else for (const [k, v] of new URLSearchParams(search)) add(k, v);
  if (o.decodeBase64) {
    const kept: string[] = [];
    for (const segment of path.split('/')) {
      const decoded = base64Query(segment);
      if (decoded) for (const [k, v] of decoded) add(k, v);
      else kept.push(segment);
    }
    path = kept.join('/');
  }
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)(.*)$/i.exec(path);
  if (scheme) path = scheme[1]!.toLowerCase() + scheme[2]!.toLowerCase() + scheme[3];
  try {
    path = decodeURI(path);
  } catch {
    // a malformed escape stays as written
  }
  return { base: path.replace(/\/+$/, ''), query };
}

function patternTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern).test(text);
  } catch {
    return false;
  }
}

/** The bases alone (their compare_path): a pattern on either side matches, literals match without case. */
export function samePath(a: NormalizedUrl, b: NormalizedUrl): boolean {
  if (isPattern(a.base) && patternTest(a.base, b.base)) return true;
  if (isPattern(b.base) && patternTest(b.base, a.base)) return true;
  return !isPattern(a.base) && !isPattern(b.base) && a.base.toLowerCase() === b.base.toLowerCase();
}

export type QueryValueEqual = (key: string, actual: string, expected: string) => boolean;

const plainQueryEqual: QueryValueEqual = (_k, a, e) => (isPattern(e) ? patternTest(e, a) : a === e);

/**
 * Bases and query parameters: every key of either side compared by its first value, a missing key
 * equal to "" (their rule), a pattern value matched.
 */
export function sameUrl(
  actual: NormalizedUrl,
  expected: NormalizedUrl,
  valueEqual = plainQueryEqual,
): boolean {
  if (!samePath(actual, expected)) return false;
  const keys = new Set([...actual.query.keys(), ...expected.query.keys()]);
  for (const k of keys) {
    const a = actual.query.get(k)?.[0] ?? '';
    const e = expected.query.get(k)?.[0] ?? '';
    if (!valueEqual(k, a, e)) return false;
  }
  return true;
}

export function showUrl(u: NormalizedUrl): string {
  const q = [...u.query.entries()].flatMap(([k, vs]) => vs.map((v) => `${k}=${v}`)).sort();
  return q.length === 0 ? u.base : `${u.base}?${q.join('&')}`;
}

/** Base URLs back to their placeholders (longest first, so one base that prefixes another cannot win). */
export function derenderer(hosts: ReadonlyMap<string, string>): (s: string) => string {
  const pairs = [...hosts.entries()].sort((a, b) => b[1].length - a[1].length);
  return (s: string) => {
    let out = s;
    for (const [placeholder, base] of pairs) {
      if (base === '') continue;
      out = out.split(base).join(placeholder);
      // the same host written with a trailing slash or another case
      const lower = base.toLowerCase();
      if (lower !== base) out = out.split(lower).join(placeholder);
    }
    return out;
  };
}

/** Whether a key is a JSONPath ($…). */
export const isJsonPath = (key: string): boolean => key.startsWith('$');

type Step = { key: string } | { index: number } | { pattern: string };

function jsonPathSteps(path: string): Step[] {
  const steps: Step[] = [];
  let i = 1;
  while (i < path.length) {
    if (path[i] === '.') {
      i++;
      if (path[i] === '^') {
        // a pattern runs to the "$" that ends the path or a step
        let end = i + 1;
        while (
          end < path.length &&
          !(path[end] === '$' && (end + 1 === path.length || '.['.includes(path[end + 1]!)))
        )
          end++;
        steps.push({ pattern: path.slice(i, end + 1) });
        i = end + 1;
      } else {
        const m = /^[^.[]+/.exec(path.slice(i));
        if (!m) throw new Error(`JSONPath ${path}: empty key at ${i}`);
        steps.push({ key: m[0] });
        i += m[0].length;
      }
    } else if (path[i] === '[') {
      const m = /^\[(?:(\d+)|'([^']*)'|"([^"]*)")\]/.exec(path.slice(i));
      if (!m) throw new Error(`JSONPath ${path}: bad step at ${i}`);
      steps.push(m[1] !== undefined ? { index: Number(m[1]) } : { key: m[2] ?? m[3]! });
      i += m[0].length;
    } else throw new Error(`JSONPath ${path}: unexpected ${JSON.stringify(path[i])} at ${i}`);
  }
  return steps;
}

/** The value at a JSONPath, or undefined where the path leads nowhere; a bad path throws. */
export function jsonPathValue(root: unknown, path: string): unknown {
  let at: unknown = root;
  for (const step of jsonPathSteps(path)) {
    if (at === null || typeof at !== 'object') return undefined;
    if ('index' in step) at = Array.isArray(at) ? at[step.index] : undefined;
    else if ('key' in step) at = (at as Record<string, unknown>)[step.key];
    else {
      const key = Object.keys(at).find((k) => patternTest(step.pattern, k));
      at = key === undefined ? undefined : (at as Record<string, unknown>)[key];
    }
  }
  return at;
}

/** A header value in the normalised string form, the deployment's hosts derendered. */
export function headerText(value: string, derender: (s: string) => string): string {
  return normalizeText(derender(value));
}
