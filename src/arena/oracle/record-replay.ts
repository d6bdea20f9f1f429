// The oracle's episode recorded for replayPrefix (src/envs): each step with its element named by
// role, name and rank, and the page after it. What restore's test and bench go back into.
import { type Observation, type ReplayStep, replayStepOf } from '../../envs/index.js';
import type { MiniArenaTask } from '../templates/types.js';
import { ORACLE_HORIZON } from './check.js';
import type { ArenaSlot } from './pool.js';
import { watchedSolve } from './watched-solve.js';

export interface ReplayRecording {
  steps: ReplayStep[];
  /** the page after each step (null once the episode ended) */
  pages: (Observation | null)[];
  success: boolean;
}

/** Solves `raw` on a freshly reset host, recording every acting step for replay. */
export async function recordForReplay(slot: ArenaSlot, raw: MiniArenaTask): Promise<ReplayRecording> {
  const task = slot.tasks.get(String(raw.task_id));
  if (!task) throw new Error(`task ${raw.task_id} is not loaded`);
  await slot.host.reset();
  const first = await slot.env.reset(task, { horizon: ORACLE_HORIZON });
  const out: ReplayRecording = { steps: [], pages: [], success: false };
  const d = await watchedSolve(slot.env, first, raw, (action, page, result) => {
    out.steps.push(replayStepOf(action, page.nodes));
    out.pages.push(result.observation);
  });
  out.success = d.result?.record?.verdict.success ?? false;
  return out;
}
