// What the browser env holds of the episode it runs: the task, its session and its steps so far.
import type { Action } from './actions/types.js';
import type { EpisodeSession } from './browser/session.js';
import type { ElementRef } from './observation/ax-tree.js';
import type { Observation, ObservationOptions } from './observation/observe.js';
import type { EpisodeRunInfo, StepRecord } from './record.js';
import type { TaskLabel } from './tasks/labels.js';
import type { Task } from './tasks/task.js';

export interface RunningEpisode {
  id: string;
  task: Task;
  horizon: number;
  minTry: number;
  triesLeft: number;
  session: EpisodeSession;
  elements: Map<string, ElementRef>;
  observation: Observation;
  actions: Action[];
  steps: StepRecord[];
  screenshots: Map<number, Buffer>;
  observationOptions: ObservationOptions;
  run: EpisodeRunInfo | undefined;
  labels: TaskLabel | undefined;
  lastAnswer: string | null;
  blocked: string[];
  startedAt: number;
}
