// A text's words as the encoder matches them against the task's: days marked, plurals folded,
// memoised per text (the same names recur on every page of a site).
import { Memo } from './memo.js';
import { contentOf, tokens } from './text.js';

export const memoTokens = new Memo<readonly string[]>(8192, tokens);

/**
 * A word's match key: plurals folded ("milestones" = "milestone", "issues" = "issue"), so an exact
 * match finds the link a task names in the singular. Only for matching; embeddings see the word.
 */
export function matchKey(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (/(?:sses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

const MONTH_DAY =
  /\b((?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+)(\d{1,2})\b/gi;

/**
 * A day of the month written after its month ("Jul 21, 2022") becomes the word "day21", for
 * matching only: an issue "#21" or "21 comments" in the task must not match every row updated on
 * a 21st, and a date in the task still matches the same date on the page. One word stays one word.
 */
export function markDays(text: string): string {
  return text.replace(MONTH_DAY, '$1day$2');
}

/** A text's words with its days marked: what match keys are made of. */
const memoMarked = new Memo<readonly string[]>(8192, (t) => tokens(markDays(t)));
/** A text's words as match keys. */
export const memoKeys = new Memo<readonly string[]>(8192, (t) => memoMarked.get(t).map(matchKey));
/** A text's content words as match keys. */
export const memoContent = new Memo<readonly string[]>(8192, (t) =>
  contentOf(memoMarked.get(t)).map(matchKey),
);
