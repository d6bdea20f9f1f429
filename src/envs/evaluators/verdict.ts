import type { EvalType } from '../tasks/schema.js';

/**
 * scored: the evaluator ran; unscored: it needs something not configured (a judge, a helper),
 * so the score means nothing; error: it failed while running (score 0, reason kept).
 */
export type VerdictStatus = 'scored' | 'unscored' | 'error';

export interface EvaluatorVerdict {
  /** WebArena's evaluators, a judge, or a suite's own (the page's reward, say). */
  evaluator: EvalType | 'judge' | (string & {});
  score: number;
  status: VerdictStatus;
  /** Human-readable reason for the score. */
  why: string;
  /** why a passing answer passed only by a lucky substring (lucky.ts): the score stays, no success */
  lucky?: string;
}

export interface Verdict {
  /** Product of the parts (WebArena's rule); 0 whenever status is not "scored". */
  score: number;
  /** a score of exactly 1 that no part calls luck */
  success: boolean;
  status: VerdictStatus;
  why: string;
  parts: EvaluatorVerdict[];
  /** why a score of 1 is not a success: the answer passed only by a lucky substring */
  lucky?: string;
  /**
   * The rewards the page itself gave, where it gives them (MiniWoB++): the raw reward (−1…1, also
   * the score) and the time-discounted one. Absent for tasks scored by evaluators.
   */
  pageReward?: { raw: number; discounted: number };
}

export class Unscorable extends Error {
  override name = 'Unscorable';
}

export function combineVerdicts(parts: EvaluatorVerdict[]): Verdict {
  const errors = parts.filter((p) => p.status === 'error');
  const unscored = parts.filter((p) => p.status === 'unscored');
  const why = parts.map((p) => `${p.evaluator}: ${p.why}`).join('; ');
  if (errors.length > 0) return { score: 0, success: false, status: 'error', why, parts };
  if (unscored.length > 0) return { score: 0, success: false, status: 'unscored', why, parts };
  const score = parts.reduce((s, p) => s * p.score, 1);
  const lucky = score === 1 ? parts.find((p) => p.lucky)?.lucky : undefined;
  if (lucky)
    return {
      score,
      success: false,
      status: 'scored',
      why: `${why}; a lucky substring: ${lucky}`,
      parts,
      lucky,
    };
  return { score, success: score === 1, status: 'scored', why, parts };
}

/**
 * A verdict from the reward a page gives itself (MiniWoB++'s, a suite's own): the score is the
 * reward (−1…1), a success any reward above 0 (BrowserGym's rule), `pageReward` both rewards.
 */
export function pageVerdict(
  evaluator: string,
  reward: number,
  why: string,
  discounted: number = reward,
): Verdict {
  const v = combineVerdicts([{ evaluator, score: reward, status: 'scored', why }]);
  // combineVerdicts calls only a score of exactly 1 a success.
  return { ...v, success: reward > 0, pageReward: { raw: reward, discounted } };
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message.split('\n')[0]! : String(e);
}
