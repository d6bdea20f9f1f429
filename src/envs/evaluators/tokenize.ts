// A port of the parts of NLTK's word_tokenize (punkt sentence split + NLTKWordTokenizer) that
// decide whether a single character stands alone as a token, which is all WebArena's
// must_include rule asks of it.

const STARTING_QUOTES: [RegExp, string][] = [
  [/([«“‘„]|[`]+)/g, ' $1 '],
  [/^"/g, '``'],
  [/(``)/g, ' $1 '],
  [/([ ([{<])("|'{2})/g, '$1 `` '],
  [/(')(?!re|ve|ll|m|t|s|d|n)(\w)\b/gi, '$1 $2'],
];

const ENDING_QUOTES: [RegExp, string][] = [
  [/([»”’])/g, ' $1 '],
  [/''/g, " '' "],
  [/"/g, " '' "],
  [/([^' ])('[sS]|'[mM]|'[dD]|') /g, '$1 $2 '],
  [/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /g, '$1 $2 '],
];

const PUNCTUATION: [RegExp, string][] = [
  [/([^.])(\.)([\])}>"']*)\s*$/g, '$1 $2 $3 '],
  [/([:,])([^\d])/g, ' $1 $2'],
  [/([:,])$/g, ' $1 '],
  [/\.{2,}/g, ' $& '],
  [/[;@#$%&]/g, ' $& '],
  [/([^.])(\.)([\])}>"']*)\s*$/g, '$1 $2$3 '],
  [/[?!]/g, ' $& '],
  [/([^'])' /g, "$1 ' "],
  [/[*]/g, ' $& '],
];

const CONTRACTIONS: RegExp[] = [
  /(?<=\b)(can)(?=not\b)/gi,
  /(?<=\b)(d)(?='ye\b)/gi,
  /(?<=\b)(gim)(?=me\b)/gi,
  /(?<=\b)(gon)(?=na\b)/gi,
  /(?<=\b)(got)(?=ta\b)/gi,
  /(?<=\b)(lem)(?=me\b)/gi,
  /(?<=\b)(more)(?='n\b)/gi,
  /(?<=\b)(wan)(?=na)(?=\s)/gi,
  /(?<=\s)('t)(?=is\b)/gi,
  /(?<=\s)('t)(?=was\b)/gi,
];

function treebank(sentence: string): string[] {
  let text = sentence;
  for (const [re, rep] of STARTING_QUOTES) text = text.replace(re, rep);
  for (const [re, rep] of PUNCTUATION) text = text.replace(re, rep);
  text = text.replace(/[\][(){}<>]/g, ' $& ');
  text = text.replace(/--/g, ' -- ');
  text = ` ${text} `;
  for (const [re, rep] of ENDING_QUOTES) text = text.replace(re, rep);
  for (const re of CONTRACTIONS) text = text.replace(re, ' $1 ');
  return text.split(/\s+/).filter((t) => t.length > 0);
}

/**
 * Sentence boundaries as punkt finds them in practice: after . ! ? (and closing quotes or brackets)
 * followed by whitespace and a capital letter or a digit. Abbreviation-like single letters ("e.g.")
 * do not end a sentence.
 */
function sentences(text: string): string[] {
  const out: string[] = [];
  const re = /([.!?])(["')\]]*)\s+(?=[A-Z0-9"'(])/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const before = text.slice(start, m.index);
    if (m[1] === '.' && /(^|[\s.])[A-Za-z]$/.test(before)) continue;
    const end = m.index + m[0].trimEnd().length;
    out.push(text.slice(start, end));
    start = m.index + m[0].length;
  }
  out.push(text.slice(start));
  return out.filter((s) => s.trim().length > 0);
}

/** Tokens as NLTK's word_tokenize gives them, close enough for WebArena's single-character rule. */
export function wordTokenize(text: string): string[] {
  return sentences(text).flatMap(treebank);
}
