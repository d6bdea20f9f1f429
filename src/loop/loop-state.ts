// What the loop carries from one iteration to the next, and what a resumed run starts from.
import type { Config } from '../config/index.js';
import { horizonAt } from '../curriculum/index.js';
import { SeededRandom } from '../util/index.js';

export type Phase = 'starting' | 'collect' | 'train' | 'eval' | 'done';

/** What survives a supervisor restart (state.json). */
export interface LoopState {
  /** the last completed iteration */
  iteration: number;
  policyVersion: number;
  horizon: number;
  randomState: number;
  totals: { envSteps: number; episodes: number; successes: number; seen: number; kept: number };
}

export function freshLoopState(config: Config): LoopState {
  return {
    iteration: 0,
    policyVersion: 0,
    horizon: horizonAt({ kind: 'list', horizons: config.horizon_schedule }, 1),
    randomState: new SeededRandom(config.seed).state,
    totals: { envSteps: 0, episodes: 0, successes: 0, seen: 0, kept: 0 },
  };
}
