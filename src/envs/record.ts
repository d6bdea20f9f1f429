import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Action } from './actions/types.js';
import type { Verdict } from './evaluators/verdict.js';
import type { Task } from './tasks/task.js';

export type EndReason =
  | 'answer'
  | 'horizon'
  | 'early_stop'
  | 'episode_timeout'
  | 'action_timeout'
  | 'crash'
  | 'error';

export interface StepRecord {
  index: number;
  /** The observation the agent acted on. */
  url: string;
  observation: string;
  notes: string[];
  /** The model's raw reply, when the action came as text. */
  reply: string | null;
  action: Action;
  /** The action in WebArena's string form. */
  actionText: string;
  /** Notes this step produced for the next observation (invalid action, check again). */
  result: string[];
  startedAt: string;
  actMs: number;
  observeMs: number;
  screenshotFile?: string;
}

export interface EpisodeRecord {
  episodeId: string;
  task: Pick<Task, 'id' | 'kind' | 'intent' | 'sites' | 'startUrls'> & { source: Task['source'] };
  horizon: number;
  minTry: number;
  actionFormat: string;
  steps: StepRecord[];
  /** The answer that was scored: the last stop answer, or WebArena's "Early stop: …". */
  answer: string;
  endReason: EndReason;
  error: string | null;
  blockedRequests: string[];
  verdict: Verdict;
  startedAt: string;
  durationMs: number;
}

function writeAtomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Writes record.json and the step screenshots into dir/<episodeId>/; returns that folder. */
export function writeEpisodeRecord(
  dir: string,
  record: EpisodeRecord,
  screenshots: ReadonlyMap<number, Buffer> = new Map(),
): string {
  const folder = path.join(dir, record.episodeId);
  mkdirSync(folder, { recursive: true });
  for (const [i, shot] of screenshots)
    writeAtomic(path.join(folder, `step-${String(i).padStart(3, '0')}.jpg`), shot);
  writeAtomic(path.join(folder, 'record.json'), `${JSON.stringify(record, null, 2)}\n`);
  return folder;
}
