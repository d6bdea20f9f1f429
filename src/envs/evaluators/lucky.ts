// A must_include pass that is luck, not an answer. WebArena's must_include accepts any answer that
// contains the references, so an answer that lists many values passes whenever one of them is
// right: a whole column ("$3.99, $12.99, $96.99" for "$12.99"), or a whole line of text that holds
// the count among other numbers ("Rating: 4.5 out of 5 (2 reviews)" for "2"). The score stays
// WebArena's; tti does not count such a pass as a success, nor keeps it for training, and says why.
import type { WebArenaEval } from '../tasks/schema.js';
import { cleanAnswer } from './string-match.js';

const MARK = '\u0000';
/** a reference that is only a number (a count, a price, a percentage) */
const NUMBER_ONLY = /^[$€£]?\d[\d,]*(\.\d+)?%?$/;
const NUMBERS = /\d+(?:[.,]\d+)*/g;
const SEPARATORS = /[,;\n|]/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `written` is the number `reference`: the same value, or its digits continued past a decimal point. */
function sameNumber(reference: string, written: string): boolean {
  const digits = (t: string) => t.replace(/[^\d.]/g, '').replace(/\.$/, '');
  const r = digits(reference);
  const w = digits(written);
  return Number(r) === Number(w) || (r.includes('.') && w.startsWith(r));
}

/**
 * Why an answer that passes must_include passes only by luck, or undefined when it is an answer:
 * - **other numbers**: every reference is a number and the answer holds other numbers too, or holds
 *   a reference only inside another number;
 * - **a list**: the answer is a list whose items holding a reference are that reference alone,
 *   with more items besides them than there are references (prose around a reference — "the
 *   author is Emma Lopes, who …" — is an answer, however long).
 */
export function luckySubstring(mustInclude: readonly string[], answer: string): string | undefined {
  const refs = mustInclude.map(cleanAnswer).filter((r) => r.length > 0);
  if (refs.length === 0) return undefined;
  let rest = cleanAnswer(answer);
  for (const r of refs) {
    // a reference is removed where it stands as a token ("2" is not the 2 of "12" or of "4.2");
    // where it is only part of one (a zero-padded "000000170" for "170"), that whole token goes
    const bounded = new RegExp(`(?<![\\w.])${escapeRegExp(r)}(?![\\w]|\\.\\d)`, 'g');
    const token = new RegExp(`[\\w.$€£]*${escapeRegExp(r)}[\\w.%]*`, 'g');
    const standsAlone = bounded.test(rest);
    if (!standsAlone && NUMBER_ONLY.test(r)) {
      // a number found only inside another ("3.99" in "$23.99", "7" in "17") is that other number,
      // unless both are one number: zero-padded ("000000170" for "170") or more precise
      // ("40.4424191" for "40.442")
      const other = (rest.match(token) ?? []).find((t) => !sameNumber(r, t));
      if (other !== undefined) return `the reference is only part of another number (${other})`;
    }
    rest = standsAlone ? rest.replace(bounded, MARK) : rest.replace(token, MARK);
  }
  if (refs.every((r) => NUMBER_ONLY.test(r))) {
    const others = rest.replaceAll(MARK, ' ').match(NUMBERS) ?? [];
    if (others.length > 0)
      return `the answer holds ${others.length} other number${others.length > 1 ? 's' : ''} besides the reference (${others.slice(0, 3).join(', ')})`;
  }
  if (!SEPARATORS.test(rest)) return undefined;
  const items = rest
    .split(SEPARATORS)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s) || s.includes(MARK));
  const withRef = items.filter((s) => s.includes(MARK));
  const extra = items.filter((s) => !s.includes(MARK));
  // more alternatives than answers: a person's answer may add a field or two (an address's
  // county), a listing adds the rest of its column or row
  if (
    withRef.length > 0 &&
    withRef.every((s) => s.replaceAll(MARK, '').trim() === '') &&
    extra.length > refs.length
  )
    return `the answer is a list of ${items.length} items of which ${extra.length} ${extra.length > 1 ? 'are' : 'is'} no reference`;
  return undefined;
}

/**
 * Why a string_match pass is luck (luckySubstring), for references whose only check is
 * must_include: an exact_match or a judge reads the whole answer, so their passes are answers.
 */
export function luckyPass(references: WebArenaEval['reference_answers'], answer: string): string | undefined {
  if (
    !references?.must_include ||
    references.exact_match !== undefined ||
    references.fuzzy_match !== undefined
  )
    return undefined;
  return luckySubstring(references.must_include, answer);
}
