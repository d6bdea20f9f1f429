import type { WebArenaEval } from '../tasks/schema.js';
import { type Judge, llmFuzzyMatch, llmUaMatch } from './judge.js';
import { wordTokenize } from './tokenize.js';

/** WebArena's clean_answer: strip, drop one pair of outer quotes, lowercase. */
export function cleanAnswer(answer: string): string {
  let s = answer.trim();
  if (s.length >= 1 && ((s.startsWith("'") && s.endsWith("'")) || (s.startsWith('"') && s.endsWith('"')))) {
    s = s.slice(1, -1);
  }
  return s.toLowerCase();
}

export function exactMatch(ref: string, pred: string): number {
  return cleanAnswer(pred) === cleanAnswer(ref) ? 1 : 0;
}

/** A one-character reference is looked up among the tokens (so "0" does not match "10"). */
export function mustInclude(ref: string, pred: string, tokenize: boolean): number {
  const r = cleanAnswer(ref);
  const p = cleanAnswer(pred);
  if (tokenize && r.length === 1 && wordTokenize(r).length === 1) return wordTokenize(p).includes(r) ? 1 : 0;
  return p.includes(r) ? 1 : 0;
}

export interface StringMatchResult {
  score: number;
  why: string;
}

/**
 * WebArena's StringEvaluator. Reference kinds run in the file's order (exact_match, must_include,
 * fuzzy_match in every real task); an "N/A" fuzzy reference that fails exact match *replaces* the
 * running score with the judge's ua_match verdict, as WebArena does.
 */
export async function stringMatch(
  ev: WebArenaEval,
  intent: string,
  answer: string,
  judge: Judge | undefined,
): Promise<StringMatchResult> {
  const refs = ev.reference_answers;
  if (!refs) throw new Error('string_match without reference_answers');
  const pred = cleanAnswer(answer);
  let score = 1;
  const notes: string[] = [];
  if (refs.exact_match !== undefined) {
    const s = exactMatch(refs.exact_match, pred);
    score *= s;
    notes.push(`exact_match ${JSON.stringify(refs.exact_match)} ${s ? 'equals' : 'differs from'} the answer`);
  }
  if (refs.must_include !== undefined) {
    const tokenize = refs.must_include.length === 1;
    for (const item of refs.must_include) {
      const s = mustInclude(item, pred, tokenize);
      score *= s;
      const how = tokenize && cleanAnswer(item).length === 1 ? ' as a token' : '';
      notes.push(`must_include ${JSON.stringify(item)}${how}: ${s ? 'found' : 'missing'}`);
    }
  }
  if (refs.fuzzy_match !== undefined) {
    if (refs.fuzzy_match === 'N/A') {
      score *= exactMatch('N/A', pred);
      if (score !== 1) {
        const r = await llmUaMatch(judge, intent, ev.string_note ?? '', pred);
        score = r.score;
        notes.push(
          `answer is not "n/a"; judge on the unachievable reason says ${JSON.stringify(r.reply.slice(0, 80))}`,
        );
      } else {
        notes.push('answer is "n/a" as expected');
      }
    } else {
      for (const item of refs.fuzzy_match) {
        const r = await llmFuzzyMatch(judge, intent, item, pred);
        score *= r.score;
        notes.push(`fuzzy_match ${JSON.stringify(item)}: judge says ${JSON.stringify(r.reply.slice(0, 80))}`);
      }
    }
  }
  return { score, why: `${notes.join('; ')} (answer ${JSON.stringify(pred.slice(0, 120))})` };
}
