import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Action } from './actions/types.js';
import type { Verdict, VerdictStatus } from './evaluators/verdict.js';
import type { Bounds } from './observation/ax-tree.js';
import type { TaskLabel } from './tasks/labels.js';
import type { Task } from './tasks/task.js';

export type EndReason =
  | 'answer'
  | 'horizon'
  | 'early_stop'
  /** MiniWoB++: the page said the episode is done */
  | 'task_done'
  /** MiniWoB++: the agent navigated off the task's page */
  | 'left_page'
  | 'episode_timeout'
  | 'action_timeout'
  | 'crash'
  | 'error';

/** The element an action named, as the observation it acted on showed it. */
export interface ActedElement {
  id: string;
  role: string;
  name: string;
  /** [x, y, width, height] in viewport CSS pixels, which are the screenshot's pixels; null: unknown. */
  bounds: Bounds | null;
}

/** Where an episode sits in a run: what the env worker was asked to do. Absent outside a run. */
export interface EpisodeRunInfo {
  /** the run's iteration (0 outside training, e.g. `tti-run eval`) */
  iteration: number;
  split: 'train' | 'test';
  /** collection (sampled, sent to replay) or eval (greedy) */
  mode: 'collect' | 'eval';
  workerId: string;
  /** the task file as the supervisor named it */
  taskFile: string;
}

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
  /** The policy version that chose the action (a run's records have it). */
  policyVersion?: number;
  /** The element a click, hover, type or element scroll named; null when the id was not on the page. */
  target?: ActedElement | null;
}

export interface EpisodeRecord {
  episodeId: string;
  task: Pick<Task, 'id' | 'kind' | 'intent' | 'sites' | 'startUrls'> & {
    source: Task['source'];
  } & Partial<TaskLabel>;
  run?: EpisodeRunInfo;
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

/** One line of an episode list (summary.json beside record.json): what a viewer lists and filters by. */
export interface EpisodeSummary {
  episodeId: string;
  taskId: string;
  intent: string;
  sites: string[];
  taskFile: string;
  template: string | null;
  tier: number | null;
  /** null: the episode ran outside a run (a bare BrowserEnv) */
  iteration: number | null;
  split: EpisodeRunInfo['split'] | null;
  mode: EpisodeRunInfo['mode'] | null;
  workerId: string | null;
  /** the policy versions that chose the actions, ascending */
  policyVersions: number[];
  steps: number;
  success: boolean;
  score: number;
  status: VerdictStatus;
  why: string;
  /** why a score of 1 is no success: the answer passed only by a lucky substring */
  lucky?: string;
  endReason: EndReason;
  answer: string;
  /** steps with a screenshot */
  screenshots: number;
  startedAt: string;
  durationMs: number;
}

/** What a summary is made from: a record, or as much of one as an older record has. */
export interface SummarySource {
  episodeId: string;
  task: {
    id: string;
    intent: string;
    sites: string[];
    source: { file: string };
    template?: string | null;
    tier?: number | null;
  };
  run?: EpisodeRunInfo;
  steps: readonly { policyVersion?: number; screenshotFile?: string }[];
  verdict: Pick<Verdict, 'success' | 'score' | 'status' | 'why' | 'lucky'>;
  endReason: EndReason;
  answer: string;
  startedAt: string;
  durationMs: number;
}

export function summarizeEpisode(record: SummarySource): EpisodeSummary {
  const versions = record.steps.flatMap((s) => (s.policyVersion === undefined ? [] : [s.policyVersion]));
  return {
    episodeId: record.episodeId,
    taskId: record.task.id,
    intent: record.task.intent,
    sites: record.task.sites,
    taskFile: record.run?.taskFile ?? record.task.source.file,
    template: record.task.template ?? null,
    tier: record.task.tier ?? null,
    iteration: record.run?.iteration ?? null,
    split: record.run?.split ?? null,
    mode: record.run?.mode ?? null,
    workerId: record.run?.workerId ?? null,
    policyVersions: [...new Set(versions)].sort((a, b) => a - b),
    steps: record.steps.length,
    success: record.verdict.success,
    score: record.verdict.score,
    status: record.verdict.status,
    why: record.verdict.why,
    ...(record.verdict.lucky ? { lucky: record.verdict.lucky } : {}),
    endReason: record.endReason,
    answer: record.answer,
    screenshots: record.steps.filter((s) => s.screenshotFile !== undefined).length,
    startedAt: record.startedAt,
    durationMs: record.durationMs,
  };
}

/**
 * Writes the step screenshots, summary.json and, last, record.json into dir/<episodeId>/ (a reader
 * that sees record.json sees the rest); returns that folder.
 */
export function writeEpisodeRecord(
  dir: string,
  record: EpisodeRecord,
  screenshots: ReadonlyMap<number, Buffer> = new Map(),
): string {
  const folder = path.join(dir, record.episodeId);
  mkdirSync(folder, { recursive: true });
  for (const [i, shot] of screenshots)
    writeAtomic(path.join(folder, `step-${String(i).padStart(3, '0')}.jpg`), shot);
  writeAtomic(path.join(folder, 'summary.json'), `${JSON.stringify(summarizeEpisode(record))}\n`);
  writeAtomic(path.join(folder, 'record.json'), `${JSON.stringify(record, null, 2)}\n`);
  return folder;
}
