// WebArena is Python: its observation text uses repr(name) and program_html compares against
// str(page.evaluate(...)). These reproduce those renderings so our text and scores match.

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function escapeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Printable ASCII without a quote or a backslash: repr() only adds the quotes. */
const PLAIN = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

/** Python's repr() of a str. */
export function pyRepr(s: string): string {
  if (PLAIN.test(s)) return `'${s}'`;
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) out += escapeChar(ch);
    else out += ch;
  }
  return out + quote;
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  // Playwright-python hands integral JS numbers over as int, others as float.
  if (Number.isInteger(n)) return String(n === 0 ? 0 : n);
  const s = String(n);
  return s.includes('e') ? s.replace(/e([+-])(\d)$/, 'e$10$2') : s;
}

function pyReprValue(v: unknown): string {
  if (typeof v === 'string') return pyRepr(v);
  return pyStr(v);
}

/** Python's str() of a value as Playwright-python would return it from page.evaluate. */
export function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return pyNumber(v);
  if (Array.isArray(v)) return `[${v.map(pyReprValue).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${pyRepr(k)}: ${pyReprValue(x)}`)
      .join(', ')}}`;
  }
  return String(v);
}

// The named references that occur in real pages; Python's html.unescape knows all of HTML5's,
// these cover what the sites emit (numeric references are handled in full).
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  deg: '°',
  times: '×',
  divide: '÷',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  plusmn: '±',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  eacute: 'é',
  egrave: 'è',
  aacute: 'á',
  agrave: 'à',
  oacute: 'ó',
  uacute: 'ú',
  iacute: 'í',
  ntilde: 'ñ',
  ccedil: 'ç',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
  szlig: 'ß',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  zwnj: '\u200c',
  zwj: '\u200d',
  shy: '\u00ad',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  check: '✓',
  star: '☆',
};

// Python maps these invalid numeric references to what browsers show (html._invalid_charrefs).
const INVALID_CHARREFS: Readonly<Record<number, string>> = {
  0: '\ufffd',
  13: '\r',
  128: '€',
  130: '‚',
  131: 'ƒ',
  132: '„',
  133: '…',
  134: '†',
  135: '‡',
  136: 'ˆ',
  137: '‰',
  138: 'Š',
  139: '‹',
  140: 'Œ',
  142: 'Ž',
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
  152: '˜',
  153: '™',
  154: 'š',
  155: '›',
  156: 'œ',
  158: 'ž',
  159: 'Ÿ',
};

/** Python's html.unescape for numeric references and the common named ones. */
export function htmlUnescape(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z][A-Za-z0-9]{0,31};?)/g, (m, body: string) => {
    if (body.startsWith('#')) {
      const hex = body[1] === 'x' || body[1] === 'X';
      const num = Number.parseInt(body.slice(hex ? 2 : 1).replace(';', ''), hex ? 16 : 10);
      const fixed = INVALID_CHARREFS[num];
      if (fixed !== undefined) return fixed;
      if ((num >= 0xd800 && num <= 0xdfff) || num > 0x10ffff) return '\ufffd';
      return String.fromCodePoint(num);
    }
    const name = body.endsWith(';') ? body.slice(0, -1) : body;
    const hit = NAMED[name];
    // Without ";" Python only accepts a few legacy names; keep the text otherwise.
    if (hit === undefined) return m;
    if (!body.endsWith(';') && !['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg'].includes(name)) return m;
    return hit;
  });
}
