import type { WebArenaEval } from './schema.js';

/** WebArena's ('webarena', WebArena's raw JSON and TTI's jsonl), the live web's ('webvoyager'), or a suite's own. */
export type TaskKind = 'webarena' | 'webvoyager' | (string & {});
/** The task files tti reads, or a suite's own source. */
export type TaskFileFormat = 'webarena-raw' | 'tti-webarena' | 'webvoyager' | (string & {});

/** A task in the one shape the episode runs, whichever file it came from. */
export interface Task {
  kind: TaskKind;
  /** WebArena's task_id as a string, or WebVoyager's id (e.g. "Allrecipes--10"). */
  id: string;
  intent: string;
  /** WebArena's sites; for WebVoyager the web_name. */
  sites: string[];
  /** One tab each (WebArena's " |AND| " start URLs). */
  startUrls: string[];
  requireLogin: boolean;
  /** Playwright storage-state file, resolved against the configured auth directory; null when none. */
  storageState: string | null;
  /** WebArena's eval block with hosts substituted; null for WebVoyager (judged by a model). */
  eval: WebArenaEval | null;
  intentTemplateId: number | null;
  /**
   * The task's pages are the configured hosts' alone (WebArena's tasks): requests elsewhere are
   * blocked (`allowedOrigins`) and a finished episode's cleaned context may start it. Absent: neither.
   */
  confined?: boolean;
  /** the episode may leave its sites changed, as its suite says (WebArena-Verified's `mutate`); absent: its eval says */
  changesSites?: boolean;
  /** Where the task came from, for error messages and records. */
  source: { file: string; entry: number; format: TaskFileFormat };
}

/** One problem in a task file: which file, which entry, which field. */
export interface TaskIssue {
  file: string;
  /** 0-based index in the JSON array, or 1-based line number for jsonl (see `entryLabel`). */
  entry: number;
  entryLabel: string;
  taskId: string | null;
  field: string;
  message: string;
}

export function formatTaskIssue(issue: TaskIssue): string {
  const id = issue.taskId === null ? '' : ` (task_id ${issue.taskId})`;
  const field = issue.field ? ` field ${issue.field}:` : '';
  return `${issue.file}: ${issue.entryLabel}${id}:${field} ${issue.message}`;
}

export class TaskFileError extends Error {
  readonly issues: TaskIssue[];
  constructor(issues: TaskIssue[]) {
    const shown = issues.slice(0, 10).map(formatTaskIssue);
    const more = issues.length > 10 ? `\n… and ${issues.length - 10} more` : '';
    super(
      `invalid task file (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${shown.join('\n')}${more}`,
    );
    this.name = 'TaskFileError';
    this.issues = issues;
  }
}
