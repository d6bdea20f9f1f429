// The oracle's episode recorded for replayPrefix (src/envs): each step with its element named by
// role, name and rank, and the page after it. What restore's test and bench go back into.
import {
  type Action,
  type BrowserEnv,
  type Observation,
  type ReplayStep,
  replayStepOf,
} from '../../envs/index.js';
import type { MiniArenaTask } from '../templates/types.js';
import { ORACLE_HORIZON } from './check.js';
import { Driver } from './driver.js';
import type { ArenaSlot } from './pool.js';
import { SOLVERS } from './solvers/index.js';

export interface ReplayRecording {
  steps: ReplayStep[];
  /** the page after each step (null once the episode ended) */
  pages: (Observation | null)[];
  success: boolean;
}

/** Solves `raw` on a freshly reset host, recording every acting step for replay. */
export async function recordForReplay(slot: ArenaSlot, raw: MiniArenaTask): Promise<ReplayRecording> {
  const task = slot.tasks.get(String(raw.task_id));
  const solver = SOLVERS[raw.miniarena.template];
  if (!task || !solver) throw new Error(`task ${raw.task_id}: not loaded, or no solver for its template`);
  await slot.host.reset();
  let obs: Observation = await slot.env.reset(task, { horizon: ORACLE_HORIZON });
  const out: ReplayRecording = { steps: [], pages: [], success: false };
  const recorder = Object.create(slot.env) as BrowserEnv;
  recorder.step = async (action: Action | string) => {
    if (typeof action === 'string') throw new Error('the oracle acts with parsed actions');
    const r = await slot.env.step(action);
    if (action.type !== 'wait') {
      out.steps.push(replayStepOf(action, obs.nodes));
      out.pages.push(r.observation);
    }
    if (r.observation) obs = r.observation;
    return r;
  };
  const d = new Driver(recorder, obs);
  await solver(d, {
    taskId: String(raw.task_id),
    template: raw.miniarena.template,
    intent: raw.intent,
    dict: raw.instantiation_dict,
  });
  out.success = d.result?.record?.verdict.success ?? false;
  return out;
}
