// WebArena-Verified's typed values: each `results_schema` type or format normalises a raw value (an
// answer's or a reference's) to a canonical form and compares two of them, with the tolerances their
// evaluator uses (docs/envs.md, "WebArena-Verified"). A reference given as a list of 2+ values lists
// alternatives: any of them matches. A value that does not normalise throws; the evaluator keeps the
// raw answer then, and a raw answer equals no normalised reference.

export type ValueKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'currency'
  | 'date'
  | 'month'
  | 'duration'
  | 'distance'
  | 'coordinates'
  | 'url'
  | 'string_list';

/** A normalised value: its kind and its alternatives (one unless the reference lists several). */
export interface TypedValue {
  readonly typed: ValueKind;
  readonly alternatives: readonly Canonical[];
  readonly raw: unknown;
}

type Canonical =
  | { kind: 'text'; text: string }
  | { kind: 'number'; value: number; currency?: string | null }
  | { kind: 'list'; items: string[] }
  | { kind: 'point'; lat: number; lon: number };

/** The kind a schema names: its format first, then its type (their registry's rule); unknown ones throw. */
export function kindOf(schema: Readonly<Record<string, unknown>> | null | undefined): ValueKind {
  const name = String(schema?.format ?? schema?.type ?? 'string');
  switch (name) {
    case 'string':
    case 'location-name':
    case 'null':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
    case 'currency':
    case 'date':
    case 'month':
    case 'duration':
    case 'distance':
    case 'coordinates':
    case 'url':
    case 'string_list':
      return name;
    default:
      throw new Error(`unknown value type ${JSON.stringify(name)}`);
  }
}

/** A string written as ^…$ is a pattern (their `is_regexp`). */
export function isPattern(s: unknown): boolean {
  return typeof s === 'string' && s.length >= 2 && s.startsWith('^') && s.endsWith('$');
}

const HYPHENS = /(?<=[a-zA-Z])[-\u2010-\u2015\u2212\u00AD]|[-\u2010-\u2015\u2212\u00AD](?=[a-zA-Z])/g;

/**
 * Their string pipeline: marks (™ ® ℠ ©) dropped, NFKC, letter-adjacent hyphens to spaces, control
 * characters dropped, accents folded to ASCII (NFKD and combining marks dropped, where they use
 * unidecode), whitespace collapsed, lower case. Patterns are left as written.
 */
export function normalizeText(s: string, derender?: (s: string) => string): string {
  if (s === '' || isPattern(s)) return s;
  let t = derender && s.includes('http') ? derender(s) : s;
  t = t.replace(/[\u2122\u00AE\u2120\u00A9]/g, '').normalize('NFKC');
  t = t.replace(HYPHENS, ' ');
  t = t.replace(/[\t\n\r]/g, ' ').replace(/\p{C}/gu, '');
  t = t
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]/g, '');
  return t.trim().replace(/\s+/g, ' ').toLowerCase();
}

const WORD_NUMBERS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };

/** "twenty-three" → 23 (their word2number fallback); null when a word is not a number word. */
function wordsToNumber(s: string): number | null {
  const words = s
    .replace(/-/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'and');
  if (words.length === 0) return null;
  let total = 0;
  let group = 0;
  for (const w of words) {
    if (w in WORD_NUMBERS) group += WORD_NUMBERS[w]!;
    else if (w === 'hundred') group *= 100;
    else if (w in SCALES) {
      total += group * SCALES[w]!;
      group = 0;
    } else return null;
  }
  return total + group;
}

function plainNumber(s: string): number | null {
  const t = s.replace(/[,\s]/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  return Number(t);
}

function toNumber(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v !== '') {
    const n = plainNumber(v) ?? wordsToNumber(v);
    if (n !== null) return n;
  }
  throw new Error(`not a number: ${JSON.stringify(v)}`);
}

function toBoolean(v: unknown): string {
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' && (v === 0 || v === 1)) return String(v === 1);
  if (typeof v === 'string') {
    if (['true', 'yes', 'y', '1'].includes(v)) return 'true';
    if (['false', 'no', 'n', '0'].includes(v)) return 'false';
  }
  throw new Error(`not a boolean: ${JSON.stringify(v)}`);
}

const CURRENCIES: ReadonlyArray<[RegExp, string]> = [
  [/us\$|\$|\busd\b|dollars?\b/i, 'USD'],
  [/€|\beur\b|euros?\b/i, 'EUR'],
  [/£|\bgbp\b|pounds?\b/i, 'GBP'],
  [/¥|\bjpy\b|\byen\b/i, 'JPY'],
  [/₹|\binr\b|rupees?\b/i, 'INR'],
  [/₽|\brub\b/i, 'RUB'],
];

/** The currency a written amount names, or null when it names none. */
export function currencyOf(s: string): string | null {
  for (const [re, code] of CURRENCIES) if (re.test(s)) return code;
  return null;
}

/**
 * An amount as price-parser reads it: symbols and words around it dropped, the separator written
 * last taken as the decimal one, a leading minus kept.
 */
function toAmount(v: unknown): { kind: 'number'; value: number; currency: string | null } {
  if (typeof v === 'number' && Number.isFinite(v)) return { kind: 'number', value: v, currency: null };
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`not an amount: ${JSON.stringify(v)}`);
  const negative = /^\s*-|^\D*-\s*\d/.test(v);
  const digits = /\d[\d.,\s]*/.exec(v.replace(/-/g, ''));
  if (!digits) throw new Error(`not an amount: ${JSON.stringify(v)}`);
  let s = digits[0].replace(/\s/g, '').replace(/[.,]$/, '');
  const decimal = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
  const thousands = decimal === '.' ? ',' : '.';
  s = s.split(thousands).join('');
  // "1,234" with only a comma: a thousands separator when three digits follow it.
  if (decimal === ',' && /,\d{3}$/.test(s) && s.split(',').length === 2 && !/,\d{1,2}$/.test(s))
    s = s.replace(',', '');
  const value = Number(s.replace(',', '.'));
  if (!Number.isFinite(value)) throw new Error(`not an amount: ${JSON.stringify(v)}`);
  return { kind: 'number', value: negative ? -value : value, currency: currencyOf(v) };
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function monthIndex(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return null;
  const i = MONTHS.findIndex((m) => m === w || (m.startsWith(w) && (w.length >= 3 || w === 'sept')));
  return i === -1 ? (w === 'sept' ? 8 : null) : i + 1;
}

function toMonth(v: unknown): string {
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= 1 && v <= 12) return MONTHS[v - 1]!;
    throw new Error(`not a month: ${v}`);
  }
  const s = String(v ?? '').trim();
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    if (n >= 1 && n <= 12) return MONTHS[n - 1]!;
    throw new Error(`month number out of range: ${s}`);
  }
  for (const word of s.split(/[\s,/-]+/)) {
    const i = monthIndex(word);
    if (i !== null) return MONTHS[i - 1]!;
  }
  const iso = /^(\d{4})-(\d{1,2})(?:-\d{1,2})?$/.exec(s);
  if (iso && Number(iso[2]) >= 1 && Number(iso[2]) <= 12) return MONTHS[Number(iso[2]) - 1]!;
  throw new Error(`not a month: ${JSON.stringify(v)}`);
}

const pad = (n: number): string => String(n).padStart(2, '0');

function isoDate(y: number, m: number, d: number): string {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    throw new Error(`no such date ${y}-${m}-${d}`);
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** A date as dateutil reads it (month first where ambiguous), as YYYY-MM-DD. */
function toDate(v: unknown): string {
  const s = String(v ?? '')
    .trim()
    .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
    .replace(/,(?! )/g, ', ');
  if (s === '') throw new Error('empty date');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s].*)?$/.exec(s);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})$/.exec(s);
  if (m) {
    const y = Number(m[3]!.length === 2 ? `20${m[3]}` : m[3]);
    const [a, b] = [Number(m[1]), Number(m[2])];
    return a > 12 ? isoDate(y, b, a) : isoDate(y, a, b);
  }
  const words = s.split(/[\s,]+/).filter((w) => w !== '');
  let month: number | null = null;
  const numbers: number[] = [];
  for (const w of words) {
    const i = monthIndex(w);
    if (i !== null && month === null) month = i;
    else if (/^\d+$/.test(w)) numbers.push(Number(w));
  }
  const year = numbers.find((n) => n > 31);
  const day = numbers.find((n) => n <= 31);
  if (month !== null && year !== undefined && day !== undefined) return isoDate(year, month, day);
  throw new Error(`not a date: ${JSON.stringify(v)}`);
}

const DURATION_UNITS: ReadonlyArray<[RegExp, number]> = [
  [/^(w|wks?|weeks?)$/, 604800],
  [/^(d|dys?|days?)$/, 86400],
  [/^(h|hrs?|hours?)$/, 3600],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(s|secs?|seconds?)$/, 1],
  [/^(ms|msecs?|milliseconds?)$/, 0.001],
];

/** Seconds of a duration as pytimeparse2 reads it; a bare number (no unit) is refused, as theirs does. */
function toDuration(v: unknown): number {
  let s = String(v ?? '')
    .trim()
    .toLowerCase();
  if (s === '' || plainNumber(s) !== null) throw new Error(`a duration needs a unit: ${JSON.stringify(v)}`);
  s = s.replace(/(\d+):(\d+)\s*hours?/, '$1h$2m');
  const clock = /^(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?$/.exec(s);
  if (clock) {
    // h:mm:ss, or mm:ss (pytimeparse's reading of two fields)
    if (clock[3] !== undefined) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
    return Number(clock[1]) * 60 + Number(clock[2]);
  }
  const parts = s.replace(/\band\b|,/g, ' ').match(/(\d+(?:\.\d+)?)\s*([a-z]+)/g);
  const rest = s.replace(/(\d+(?:\.\d+)?)\s*([a-z]+)/g, '').replace(/[\s,]|and/g, '');
  if (!parts || rest !== '') throw new Error(`not a duration: ${JSON.stringify(v)}`);
  let seconds = 0;
  for (const p of parts) {
    const [, n, unit] = /(\d+(?:\.\d+)?)\s*([a-z]+)/.exec(p)!;
    const factor = DURATION_UNITS.find(([re]) => re.test(unit!))?.[1];
    if (factor === undefined) throw new Error(`unknown duration unit ${JSON.stringify(unit)}`);
    seconds += Number(n) * factor;
  }
  return seconds;
}

const DISTANCE_UNITS: ReadonlyArray<[RegExp, number]> = [
  [/^(km|kms|kilometers?|kilometres?|k)$/, 1000],
  [/^(m|meters?|metres?)$/, 1],
  [/^(cm|centimeters?|centimetres?)$/, 0.01],
  [/^(mi|miles?)$/, 1609.344],
  [/^(ft|foot|feet)$/, 0.3048],
  [/^(yd|yards?)$/, 0.9144],
  [/^(in|inch|inches)$/, 0.0254],
];

/** Metres of a distance as pint reads it; a bare number is refused, as theirs does. */
function toDistance(v: unknown): number {
  const s = String(v ?? '')
    .trim()
    .toLowerCase()
    .replace(/,/g, '');
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)\.?$/.exec(s);
  if (!m) throw new Error(`a distance needs a number and a unit: ${JSON.stringify(v)}`);
  const factor = DISTANCE_UNITS.find(([re]) => re.test(m[2]!))?.[1];
  if (factor === undefined) throw new Error(`unknown distance unit ${JSON.stringify(m[2])}`);
  return Number(m[1]) * factor;
}

function coordinate(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isFinite(n)) throw new Error(`not a coordinate: ${JSON.stringify(v)}`);
  return n;
}

/** Latitude and longitude from {lat…, lon…/lng}, [lat, lon] or "40.7, -74.0" / "40.7N 74.0W". */
function toPoint(v: unknown): { kind: 'point'; lat: number; lon: number } {
  let lat: number;
  let lon: number;
  if (Array.isArray(v) && v.length === 2) [lat, lon] = [coordinate(v[0]), coordinate(v[1])];
  else if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    const la = keys.find((k) => k.length >= 2 && 'latitude'.startsWith(k.toLowerCase()));
    const lo = keys.find(
      (k) => (k.length >= 2 && 'longitude'.startsWith(k.toLowerCase())) || k.toLowerCase() === 'lng',
    );
    if (!la || !lo) throw new Error('coordinates need a latitude and a longitude key');
    const o = v as Record<string, unknown>;
    [lat, lon] = [coordinate(o[la]), coordinate(o[lo])];
  } else if (typeof v === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*°?\s*([ns])?[\s,;]+(-?\d+(?:\.\d+)?)\s*°?\s*([ew])?\s*$/i.exec(v);
    if (!m) throw new Error(`not coordinates: ${JSON.stringify(v)}`);
    lat = Number(m[1]) * (m[2]?.toLowerCase() === 's' ? -1 : 1);
    lon = Number(m[3]) * (m[4]?.toLowerCase() === 'w' ? -1 : 1);
  } else throw new Error(`not coordinates: ${JSON.stringify(v)}`);
  if (lat < -90 || lat > 90) throw new Error(`latitude out of range: ${lat}`);
  return { kind: 'point', lat, lon };
}

/** A URL in one spelling: hosts derendered, scheme and host lower case, no trailing /, query sorted. */
function canonicalUrl(raw: string, derender?: (s: string) => string): string {
  const s = (derender ? derender(raw.trim()) : raw.trim()).replace(/#.*$/, '');
  if (s === '') throw new Error('empty URL');
  if (isPattern(s)) return s;
  const [base = '', search = ''] = s.split('?', 2);
  const host = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(.*)$/i.exec(base);
  const path = (host ? host[1]!.toLowerCase() + host[2] : base).replace(/\/+$/, '');
  const query = [...new URLSearchParams(search)].map(([k, v]) => `${k}=${v}`).sort();
  return query.length === 0 ? path : `${path}?${query.join('&')}`;
}

function canonical(kind: ValueKind, raw: unknown, derender?: (s: string) => string): Canonical {
  const v = typeof raw === 'string' && kind !== 'string' ? normalizeText(raw, derender) : raw;
  switch (kind) {
    case 'string':
      return {
        kind: 'text',
        text: raw === null || raw === undefined ? '' : normalizeText(String(raw), derender),
      };
    case 'number':
      return { kind: 'number', value: toNumber(v) };
    case 'boolean':
      return { kind: 'text', text: toBoolean(v) };
    case 'currency':
      // the currency is read from the raw text: normalising folds € and £ away
      return { ...toAmount(v), currency: typeof raw === 'string' ? currencyOf(raw) : null };
    case 'date':
      return { kind: 'text', text: toDate(v) };
    case 'month':
      return { kind: 'text', text: toMonth(v) };
    case 'duration':
      return { kind: 'number', value: toDuration(v) };
    case 'distance':
      return { kind: 'number', value: toDistance(v) };
    case 'coordinates':
      return toPoint(raw);
    case 'url':
      return { kind: 'text', text: canonicalUrl(String(raw ?? ''), derender) };
    case 'string_list': {
      const items = Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(',');
      return { kind: 'list', items: items.map((i) => normalizeText(i.trim())).sort() };
    }
  }
}

/**
 * A raw value as `kind`: a list of 2+ values is alternatives (a 2-item list is one point for
 * coordinates, and one list for string_list); a 1-item list is refused, as theirs refuses it.
 */
export function typedValue(kind: ValueKind, raw: unknown, derender?: (s: string) => string): TypedValue {
  const single = kind === 'string_list' || (kind === 'coordinates' && Array.isArray(raw) && raw.length === 2);
  if (Array.isArray(raw) && !single) {
    if (raw.length < 2) throw new Error(`alternatives need 2+ values, got ${JSON.stringify(raw)}`);
    return { typed: kind, alternatives: raw.map((r) => canonical(kind, r, derender)), raw };
  }
  return { typed: kind, alternatives: [canonical(kind, raw, derender)], raw };
}

export function isTypedValue(v: unknown): v is TypedValue {
  return v !== null && typeof v === 'object' && 'typed' in v && 'alternatives' in v;
}

const STRIPPED = /^['"`.,;:!?]+|['"`.,;:!?]+$/g;

function patternMatches(pattern: string, text: string): boolean {
  try {
    return new RegExp(`^(?:${pattern.slice(1, -1)})$`, 'i').test(text);
  } catch {
    return false;
  }
}

function textEqual(a: string, b: string): boolean {
  if (isPattern(a) && patternMatches(a, b)) return true;
  if (isPattern(b) && patternMatches(b, a)) return true;
  return a === b || (a.replace(STRIPPED, '') === b.replace(STRIPPED, '') && a !== '' && b !== '');
}

function within(a: number, b: number, absolute: number, relative: number): boolean {
  return Math.abs(a - b) <= Math.max(absolute, relative * Math.max(Math.abs(a), Math.abs(b))) + 1e-9;
}

function canonicalEqual(kind: ValueKind, a: Canonical, b: Canonical): boolean {
  if (a.kind === 'text' && b.kind === 'text') return textEqual(a.text, b.text);
  if (a.kind === 'list' && b.kind === 'list')
    return a.items.length === b.items.length && a.items.every((x, i) => textEqual(x, b.items[i]!));
  if (a.kind === 'point' && b.kind === 'point')
    return Math.abs(a.lat - b.lat) <= 1e-5 && Math.abs(a.lon - b.lon) <= 1e-5;
  if (a.kind === 'number' && b.kind === 'number') {
    switch (kind) {
      case 'currency':
        // tti's addition: amounts in different currencies differ; one that names none is in
        // dollars, as every WebArena store prices
        if ((a.currency ?? 'USD') !== (b.currency ?? 'USD')) return false;
        return Math.abs(a.value - b.value) <= 0.1 + 1e-9;
      case 'duration':
        return within(a.value, b.value, 180, 0.1);
      case 'distance':
        return within(a.value, b.value, 10, 0.02);
      default:
        return a.value === b.value;
    }
  }
  return false;
}

/** Whether two values of one kind match: any alternative of one equals any of the other. */
export function sameValue(a: TypedValue, b: TypedValue): boolean {
  if (a.typed !== b.typed) return false;
  return a.alternatives.some((x) => b.alternatives.some((y) => canonicalEqual(a.typed, x, y)));
}

/** A value as the reason shows it. */
export function showValue(v: unknown): string {
  if (isTypedValue(v)) return JSON.stringify(v.raw);
  if (Array.isArray(v)) return `[${v.map(showValue).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${showValue(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v) ?? 'undefined';
}
