// What starting a supervisor takes, and what it gives back: the run's info, its status, a stop and
// the outcome once everything is down.
import type { Config } from '../../config/index.js';
import type { Logger } from '../../log/index.js';
import type { RunEvent, StatusSnapshot } from '../../protocol/index.js';
import type { RunDir, SupervisorInfo } from '../../run/index.js';
import type { RunEnd, RunMode } from './run-mode.js';

export interface SupervisorOptions {
  config: Config;
  runDir: RunDir;
  token: string;
  resume: boolean;
  log: Logger;
  mode?: RunMode;
}

export interface RunOutcome {
  state: 'stopped' | 'failed';
  reason: string;
  /** `completed`: the loop (or the eval) ran to its end */
  completed: boolean;
  /** the eval's summary, in eval mode */
  evaluation: RunEnd['evaluation'];
}

export interface SupervisorHandle {
  info: SupervisorInfo;
  snapshot(): Promise<StatusSnapshot>;
  stop(reason: string): Promise<RunOutcome>;
  done: Promise<RunOutcome>;
  /** called with each run event, for the foreground console view */
  onEvent(listener: (event: RunEvent) => void): void;
}
