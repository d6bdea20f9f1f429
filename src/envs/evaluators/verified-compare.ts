// WebArena-Verified's structure around the typed values: a value, list or object normalised as its
// JSON schema says (the reference strictly: a reference that does not normalise is an error; an
// answer leniently: what does not normalise stays raw and matches nothing), and the comparison of
// two such structures, naming the first path where they differ.
import {
  isTypedValue,
  kindOf,
  sameValue,
  showValue,
  type TypedValue,
  typedValue,
} from './verified-values.js';

export type Schema = Readonly<Record<string, unknown>>;
/** A normalised structure: typed values, lists and objects of them, null, or a raw leftover. */
export type Normalized =
  | TypedValue
  | null
  | readonly Normalized[]
  | { readonly [key: string]: Normalized }
  | unknown;

export interface NormalizeOptions {
  /** the reference (true: failures throw) or an answer (false: failures keep the raw value) */
  strict: boolean;
  /** the deployment's URLs back to placeholders inside strings */
  derender?: (s: string) => string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !isTypedValue(v);

function parsedJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

function simple(raw: unknown, schema: Schema | undefined, o: NormalizeOptions): Normalized {
  try {
    return typedValue(kindOf(schema), raw, o.derender);
  } catch (e) {
    if (o.strict) throw new Error(`${showValue(raw)} is not a ${kindOf(schema)}: ${(e as Error).message}`);
    return raw;
  }
}

/** An object's own keys, each as its property schema says (a key without one is a string). */
export function normalizeObject(value: unknown, schema: Schema, o: NormalizeOptions): Normalized {
  const obj = parsedJson(value);
  if (!isRecord(obj)) {
    if (o.strict) throw new Error(`expected an object, got ${showValue(value)}`);
    return obj;
  }
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, Normalized> = {};
  for (const [key, v] of Object.entries(obj)) {
    const prop = properties[key];
    if (v === null || v === undefined) out[key] = null;
    else if (prop?.type === 'array') out[key] = normalizeList(v, prop, o);
    else if (prop?.type === 'object') out[key] = normalizeObject(v, prop, o);
    else out[key] = simple(v, prop, o);
  }
  return out;
}

/**
 * A list as an array schema says. An answer's single value counts as a list of one, and a JSON
 * string is read first; an item that is itself a list of 2+ values in the reference lists alternatives.
 */
export function normalizeList(value: unknown, schema: Schema | null, o: NormalizeOptions): Normalized {
  let list = o.strict ? value : parsedJson(value);
  if (!o.strict && !Array.isArray(list)) list = [list];
  if (!Array.isArray(list)) throw new Error(`expected a list, got ${showValue(value)}`);
  const items = (schema?.items ?? undefined) as Schema | undefined;
  if (items?.type === 'object')
    return list.map((item) =>
      Array.isArray(item) ? item.map((x) => normalizeObject(x, items, o)) : normalizeObject(item, items, o),
    );
  return list.map((item) => simple(item, items, o));
}

/** A flat object whose keys each have a schema (post data, query parameters), values typed. */
export function normalizeFields(value: Record<string, unknown>, schema: Schema | null, o: NormalizeOptions) {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, Normalized> = {};
  for (const [key, v] of Object.entries(value)) {
    const prop = properties[key];
    if (v === null || v === undefined) out[key] = null;
    else if (prop?.type === 'array' || (prop === undefined && Array.isArray(v) && v.length === 1))
      out[key] = normalizeList(Array.isArray(v) ? v : [v], prop ?? null, { ...o, strict: false });
    else if (prop?.type === 'object') out[key] = normalizeObject(v, prop, o);
    else if (prop === undefined && typeof v === 'object')
      out[key] = v; // compared as it is
    else if (prop === undefined)
      out[key] = simple(String(v), prop, o); // theirs: a string without a schema
    else out[key] = simple(v, prop, o);
  }
  return out;
}

export interface CompareOptions {
  ordered?: boolean;
  /** keys an answer may have beyond the reference's (network events: yes; answers: no) */
  ignoreExtraKeys?: boolean;
}

function equalPlain(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Where `actual` differs from `expected`: [] when it matches. Lists match as multisets unless
 * ordered (each reference item takes the first unmatched answer item equal to it; leftovers on
 * either side fail); objects match key by key.
 */
export function differences(
  actual: unknown,
  expected: unknown,
  path: string,
  o: CompareOptions = {},
): string[] {
  if (isTypedValue(expected)) {
    if (isTypedValue(actual) && actual.typed === expected.typed) {
      return sameValue(actual, expected)
        ? []
        : [`${path}: expected ${showValue(expected)}, got ${showValue(actual)}`];
    }
    return [`${path}: expected ${showValue(expected)}, got ${showValue(actual)} (not a ${expected.typed})`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected a list, got ${showValue(actual)}`];
    return o.ordered ? orderedDiff(actual, expected, path, o) : unorderedDiff(actual, expected, path, o);
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return [`${path}: expected an object, got ${showValue(actual)}`];
    const out: string[] = [];
    const missing = Object.keys(expected).filter((k) => !(k in actual));
    const extra = Object.keys(actual).filter((k) => !(k in expected));
    if (missing.length > 0) out.push(`${path}: missing key(s) ${missing.join(', ')}`);
    if (extra.length > 0 && !o.ignoreExtraKeys) out.push(`${path}: extra key(s) ${extra.join(', ')}`);
    for (const k of Object.keys(expected))
      if (k in actual) out.push(...differences(actual[k], expected[k], `${path}.${k}`, o));
    return out;
  }
  if (expected === null || expected === undefined)
    return actual === null || actual === undefined
      ? []
      : [`${path}: expected null, got ${showValue(actual)}`];
  return equalPlain(actual, expected)
    ? []
    : [`${path}: expected ${showValue(expected)}, got ${showValue(actual)}`];
}

function unorderedDiff(
  actual: readonly unknown[],
  expected: readonly unknown[],
  path: string,
  o: CompareOptions,
) {
  const used = new Array<boolean>(actual.length).fill(false);
  const missing: string[] = [];
  expected.forEach((e, i) => {
    const at = actual.findIndex((a, j) => !used[j] && differences(a, e, `${path}[${i}]`, o).length === 0);
    if (at === -1) missing.push(showValue(e));
    else used[at] = true;
  });
  const extra = actual.filter((_, j) => !used[j]).map(showValue);
  if (missing.length === 0 && extra.length === 0) return [];
  const parts = [
    ...(missing.length > 0 ? [`missing ${missing.join(', ')}`] : []),
    ...(extra.length > 0 ? [`extra ${extra.join(', ')}`] : []),
  ];
  return [
    `${path}: ${expected.length - missing.length}/${expected.length} items matched; ${parts.join('; ')}`,
  ];
}

function orderedDiff(
  actual: readonly unknown[],
  expected: readonly unknown[],
  path: string,
  o: CompareOptions,
) {
  const out: string[] = [];
  for (let i = 0; i < Math.min(actual.length, expected.length); i++)
    out.push(...differences(actual[i], expected[i], `${path}[${i}]`, o));
  if (actual.length !== expected.length)
    out.push(`${path}: expected ${expected.length} items in order, got ${actual.length}`);
  return out;
}
