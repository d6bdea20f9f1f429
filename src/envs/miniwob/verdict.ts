// A MiniWoB++ episode's verdict: no WebArena evaluator, the page's own reward. Success is raw
// reward > 0 (BrowserGym's rule), so a partial reward counts as a success; the score keeps the raw
// reward (−1…1) for mean-reward tables.
import type { Page } from 'playwright-core';
import { combineVerdicts, errorMessage, type Verdict } from '../evaluators/verdict.js';
import { readMiniwobResult, sameTaskPage } from './page.js';

export async function miniwobVerdict(page: Page | null, taskUrl: string, ended: string): Promise<Verdict> {
  const part = (score: number, why: string, discounted = score): Verdict => {
    const v = combineVerdicts([{ evaluator: 'miniwob_reward', score, status: 'scored', why }]);
    // combineVerdicts calls only a score of exactly 1 a success; MiniWoB++ calls any raw reward > 0 one.
    return { ...v, success: score > 0, pageReward: { raw: score, discounted } };
  };
  if (page === null || page.isClosed()) return part(0, `no page to read the reward from (${ended})`);
  if (!sameTaskPage(page.url(), taskUrl)) return part(0, `the agent left the task page for ${page.url()}`);
  try {
    const r = await readMiniwobResult(page);
    if (!r.done) return part(0, `the page did not say done (${ended}): reward 0`);
    const reason = r.reason === null ? '' : `: ${r.reason}`;
    return part(r.raw, `page reward ${r.raw} (time-discounted ${r.reward.toFixed(3)})${reason}`, r.reward);
  } catch (e) {
    return {
      ...combineVerdicts([
        {
          evaluator: 'miniwob_reward',
          score: 0,
          status: 'error',
          why: `reading the reward failed: ${errorMessage(e)}`,
        },
      ]),
    };
  }
}
