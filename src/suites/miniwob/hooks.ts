// A MiniWoB++ episode in the browser: the page's own episode started with the seed (the intent is
// its utterance), its end when the page says done or the agent leaves the task's page, and its
// verdict, the page's own reward. Success is raw reward > 0 (BrowserGym's rule), so a partial reward
// counts as a success; the score keeps the raw reward (−1…1) for mean-reward tables.
import type { Page } from 'playwright-core';
import {
  combineVerdicts,
  type EndReason,
  type EpisodeHooks,
  errorMessage,
  pageVerdict,
  type Task,
  type Verdict,
} from '../../envs/index.js';
import { readMiniwobResult, sameTaskPage, startMiniwobEpisode } from './page.js';
import { parseMiniwobTaskId } from './task.js';

export const MINIWOB_EVALUATOR = 'miniwob_reward';

export interface MiniwobHookOptions {
  /** core.EPISODE_MAX_TIME: large, so that the horizon and not the page's timer ends an episode (BrowserGym: 1e6 ms) */
  episodeMaxTimeMs?: number;
  /** BrowserGym's remove_human_display (default true) */
  removeHumanDisplay?: boolean;
}

async function verdict(page: Page | null, task: Task, ended: EndReason): Promise<Verdict> {
  const taskUrl = task.startUrls[0] ?? '';
  if (page === null || page.isClosed())
    return pageVerdict(MINIWOB_EVALUATOR, 0, `no page to read the reward from (${ended})`);
  if (!sameTaskPage(page.url(), taskUrl))
    return pageVerdict(MINIWOB_EVALUATOR, 0, `the agent left the task page for ${page.url()}`);
  try {
    const r = await readMiniwobResult(page);
    if (!r.done) return pageVerdict(MINIWOB_EVALUATOR, 0, `the page did not say done (${ended}): reward 0`);
    const reason = r.reason === null ? '' : `: ${r.reason}`;
    const why = `page reward ${r.raw} (time-discounted ${r.reward.toFixed(3)})${reason}`;
    return pageVerdict(MINIWOB_EVALUATOR, r.raw, why, r.reward);
  } catch (e) {
    return combineVerdicts([
      {
        evaluator: MINIWOB_EVALUATOR,
        score: 0,
        status: 'error',
        why: `reading the reward failed: ${errorMessage(e)}`,
      },
    ]);
  }
}

/** The browser env's hooks for MiniWoB++ pages. */
export function miniwobHooks(options: MiniwobHookOptions = {}): EpisodeHooks {
  return {
    evaluator: MINIWOB_EVALUATOR,
    async start({ page, task, responses, timeoutMs }) {
      const { name, seed } = parseMiniwobTaskId(task.id);
      const response = responses[0];
      if (response && !response.ok())
        throw new Error(
          `no MiniWoB++ task ${JSON.stringify(name)}: ${task.startUrls[0]} answered HTTP ${response.status()}`,
        );
      // The page shows only a START cover until the driver seeds and starts the episode.
      await page.waitForLoadState('load', { timeout: timeoutMs });
      const utterance = await startMiniwobEpisode(
        page,
        seed,
        options.episodeMaxTimeMs ?? 1_000_000,
        timeoutMs,
        options.removeHumanDisplay ?? true,
      );
      return { ...task, intent: utterance };
    },
    async ended(page, task) {
      if (page.isClosed() || !sameTaskPage(page.url(), task.startUrls[0] ?? '')) return 'left_page';
      return (await readMiniwobResult(page)).done ? 'task_done' : null;
    },
    score: ({ page, task, endReason }) => verdict(page, task, endReason),
  };
}
