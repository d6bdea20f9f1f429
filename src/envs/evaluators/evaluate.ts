import type { Page } from 'playwright-core';
import type { EvalType } from '../tasks/schema.js';
import type { Task } from '../tasks/task.js';
import type { Judge } from './judge.js';
import { luckyPass } from './lucky.js';
import { type ProgramHtmlHelpers, type ProgramHtmlOptions, programHtml } from './program-html.js';
import { stringMatch } from './string-match.js';
import { urlMatch } from './url-match.js';
import { combineVerdicts, type EvaluatorVerdict, errorMessage, Unscorable, type Verdict } from './verdict.js';
import type { AnswerJudge } from './webvoyager-judge.js';

export interface EvaluationInput {
  task: Task;
  /** The stop answer ("" when the episode ended without one, "Early stop: …" after an early stop). */
  answer: string;
  /** The live page after the episode; null when the browser is gone. */
  page: Page | null;
  judge?: Judge;
  helpers?: ProgramHtmlHelpers;
  navigationTimeoutMs?: number;
  /** how program_html waits for a page it navigated to (ProgramHtmlOptions.settle) */
  settle?: ProgramHtmlOptions['settle'];
  /** grades tasks with no programmatic evaluator (WebVoyager) */
  answerJudge?: AnswerJudge;
  /** whether the episode ended with an ANSWER: TTI judges only those */
  endedWithAnswer?: boolean;
  /** the last observation, for the answer judge */
  finalObservation?: { url: string; text: string; screenshots: readonly Buffer[] };
}

async function runOne(kind: EvalType, input: EvaluationInput): Promise<EvaluatorVerdict> {
  const ev = input.task.eval!;
  try {
    switch (kind) {
      case 'string_match': {
        const r = await stringMatch(ev, input.task.intent, input.answer, input.judge);
        const lucky = r.score === 1 ? luckyPass(ev.reference_answers, input.answer) : undefined;
        return { evaluator: kind, score: r.score, status: 'scored', why: r.why, ...(lucky ? { lucky } : {}) };
      }
      case 'url_match': {
        if (!input.page) throw new Error('no live page to read the URL from');
        const r = urlMatch(input.page.url(), ev.reference_url ?? '', ev.url_note);
        return { evaluator: kind, score: r.score, status: 'scored', why: r.why };
      }
      case 'program_html': {
        if (!input.page) throw new Error('no live page to inspect');
        const r = await programHtml(input.page, ev.program_html ?? [], {
          helpers: input.helpers,
          navigationTimeoutMs: input.navigationTimeoutMs,
          settle: input.settle,
        });
        return { evaluator: kind, score: r.score, status: 'scored', why: r.why };
      }
    }
  } catch (e) {
    if (e instanceof Unscorable) return { evaluator: kind, score: 0, status: 'unscored', why: e.message };
    return { evaluator: kind, score: 0, status: 'error', why: `evaluator failed: ${errorMessage(e)}` };
  }
}

/**
 * Scores a finished episode as WebArena does: every evaluator in eval_types order (url_match
 * reads the URL before program_html navigates), multiplied. Never throws.
 */
export async function evaluateTask(input: EvaluationInput): Promise<Verdict> {
  const ev = input.task.eval;
  if (!ev && input.answerJudge) {
    if (input.endedWithAnswer === false)
      return combineVerdicts([
        { evaluator: 'judge', score: 0, status: 'scored', why: 'the episode ended without an ANSWER' },
      ]);
    const last = input.finalObservation ?? { url: '', text: '', screenshots: [] };
    const verdict = await input.answerJudge
      .judge({
        task: input.task,
        answer: input.answer,
        url: last.url,
        observation: last.text,
        screenshots: last.screenshots,
      })
      .catch(
        (e: unknown): EvaluatorVerdict => ({
          evaluator: 'judge',
          score: 0,
          status: 'error',
          why: `the judge failed: ${errorMessage(e)}`,
        }),
      );
    return combineVerdicts([verdict]);
  }
  if (!ev) {
    return combineVerdicts([
      {
        evaluator: 'judge',
        score: 0,
        status: 'unscored',
        why: `${input.task.kind} task ${input.task.id} has no programmatic evaluator; it needs a screenshot judge`,
      },
    ]);
  }
  const parts: EvaluatorVerdict[] = [];
  for (const kind of ev.eval_types) parts.push(await runOne(kind, input));
  return combineVerdicts(parts);
}
