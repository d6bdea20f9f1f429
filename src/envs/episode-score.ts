// Scoring the browser env's episode: its final page's verdict and the record it leaves.
import type { Page } from 'playwright-core';
import type { ActionFormat } from './actions/types.js';
import type { BrowserEnvConfig } from './env-config.js';
import { evaluateTask } from './evaluators/evaluate.js';
import { combineVerdicts, errorMessage, type Verdict } from './evaluators/verdict.js';
import type { EndReason, EpisodeRecord } from './record.js';
import type { RunningEpisode } from './running-episode.js';
import { withTimeout } from './step-timeout.js';

/** How program_html waits for a page it navigated to: the env's quiet-network wait, then stop loading. */
function settlerOf(
  ep: RunningEpisode,
  config: Readonly<BrowserEnvConfig>,
): (page: Page, capMs: number) => Promise<void> {
  return async (page, capMs) => {
    if (!(await ep.session.settle(capMs, config.quietMs, page))) await ep.session.stopLoading();
  };
}

/**
 * The finished episode's verdict: the suite's own score, else the task's evaluators on the final
 * page (`score` false: not scored, an error naming how the episode ended).
 */
export async function verdictOf(
  ep: RunningEpisode,
  config: Readonly<BrowserEnvConfig>,
  end: { endReason: EndReason; error: string | null; score: boolean; answer: string },
): Promise<Verdict> {
  const { endReason, error, score, answer } = end;
  const livePage = ep.session.current.isClosed() ? null : ep.session.current;
  const hooks = config.hooks ?? {};
  const scoring = async (): Promise<Verdict> =>
    hooks.score
      ? hooks.score({ page: livePage, task: ep.task, endReason, answer })
      : evaluateTask({
          task: ep.task,
          answer,
          page: livePage,
          judge: config.judge,
          helpers: config.helpers,
          ...(config.answerJudge ? { answerJudge: config.answerJudge } : {}),
          endedWithAnswer: endReason === 'answer',
          finalObservation: {
            url: ep.observation.url,
            text: ep.observation.text,
            screenshots: [...ep.screenshots.entries()]
              .sort((a, b) => a[0] - b[0])
              .slice(-3)
              .map(([, shot]) => shot),
          },
          navigationTimeoutMs: config.loadCapMs,
          settle: settlerOf(ep, config),
        });
  return score
    ? await withTimeout(scoring(), config.evaluationTimeoutMs ?? 120_000, 'scoring the final page').catch(
        (e: unknown) =>
          combineVerdicts([
            {
              evaluator: hooks.evaluator ?? 'judge',
              score: 0,
              status: 'error',
              why: `scoring failed: ${errorMessage(e)}`,
            },
          ]),
      )
    : combineVerdicts([
        {
          evaluator: 'judge',
          score: 0,
          status: 'error',
          why: `not scored: the episode ended with ${endReason}: ${error}`,
        },
      ]);
}

/** The finished episode's record: its task, steps, answer, end and verdict. */
export function recordOf(
  ep: RunningEpisode,
  format: ActionFormat,
  end: { endReason: EndReason; error: string | null; answer: string; verdict: Verdict },
): EpisodeRecord {
  return {
    episodeId: ep.id,
    task: {
      id: ep.task.id,
      kind: ep.task.kind,
      intent: ep.task.intent,
      sites: ep.task.sites,
      startUrls: ep.task.startUrls,
      source: ep.task.source,
      ...ep.labels,
    },
    ...(ep.run ? { run: ep.run } : {}),
    horizon: ep.horizon,
    minTry: ep.minTry,
    actionFormat: format,
    steps: ep.steps,
    answer: end.answer,
    endReason: end.endReason,
    error: end.error,
    blockedRequests: ep.blocked,
    verdict: end.verdict,
    startedAt: new Date(ep.startedAt).toISOString(),
    durationMs: Date.now() - ep.startedAt,
  };
}
