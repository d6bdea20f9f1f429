import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { refusedUrl, WEB_SCHEMES } from '../browser/navigation.js';
import { placeholderMap, rewriteStrings } from './hosts.js';
import { TtiWebArenaTaskSchema, WebArenaRawTaskSchema, WebVoyagerTaskSchema } from './schema.js';
import { type Task, TaskFileError, type TaskFileFormat, type TaskIssue } from './task.js';

export interface TaskLoadOptions {
  /** Format; guessed from the file name and first entry when absent. */
  format?: TaskFileFormat;
  /** WebArena raw files: site name or placeholder → base URL (e.g. { shopping: 'http://localhost:7770' }). */
  hosts?: Readonly<Record<string, string>>;
  /** TTI jsonl: hosts are already substituted; rewrite them (from → to) to point at your containers. */
  hostRewrite?: Readonly<Record<string, string>>;
  /**
   * Directory that WebArena's "./.auth/<site>_state.json" paths are relative to. Defaults to the
   * file's directory. A storage_state must lie inside it or the file's directory: a shared task
   * file must not load a file of the machine's into the browser.
   */
  authDir?: string;
  /**
   * URL schemes a task may name: http: and https: unless the suite that reads the file widens it,
   * saying why where it does (WEB_SCHEMES). file:, data: and javascript: would open what the
   * machine holds, or run script, rather than a site.
   */
  urlSchemes?: readonly string[];
}

export interface TaskFileReport {
  file: string;
  format: TaskFileFormat;
  tasks: Task[];
  issues: TaskIssue[];
}

interface RawEntry {
  entry: number;
  entryLabel: string;
  value: unknown;
}

function guessFormat(file: string, first: unknown): TaskFileFormat {
  if (!file.endsWith('.jsonl')) return 'webarena-raw';
  if (first !== null && typeof first === 'object' && 'eval' in first) return 'tti-webarena';
  return 'webvoyager';
}

/**
 * A task file's format, from its name and first entry, without validating it: `.jsonl` whose first
 * line has `eval` is TTI's, other `.jsonl` WebVoyager's, anything else WebArena's raw JSON.
 */
export function taskFileFormat(file: string): TaskFileFormat {
  if (!file.endsWith('.jsonl')) return 'webarena-raw';
  let first: unknown = null;
  try {
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.trim() !== '');
    first = line === undefined ? null : JSON.parse(line);
  } catch {
    // unreadable or not JSON: validation reports it where the file is loaded
  }
  return guessFormat(file, first);
}

function taskIdOf(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.task_id === 'number' || typeof v.task_id === 'string') return String(v.task_id);
  if (typeof v.id === 'string') return v.id;
  return null;
}

function readEntries(file: string, text: string, issues: TaskIssue[]): RawEntry[] {
  if (file.endsWith('.jsonl')) {
    const out: RawEntry[] = [];
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      const entryLabel = `line ${i + 1}`;
      try {
        out.push({ entry: i + 1, entryLabel, value: JSON.parse(line) });
      } catch (e) {
        issues.push({
          file,
          entry: i + 1,
          entryLabel,
          taskId: null,
          field: '',
          message: `not JSON: ${(e as Error).message}`,
        });
      }
    });
    return out;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    issues.push({
      file,
      entry: -1,
      entryLabel: 'whole file',
      taskId: null,
      field: '',
      message: `not JSON: ${(e as Error).message}`,
    });
    return [];
  }
  // WebArena also ships one task per file (config_files/<id>.json).
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.map((value, i) => ({ entry: i, entryLabel: `entry ${i}`, value }));
}

function fieldPath(p: readonly PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');
}

function zodIssues(file: string, e: RawEntry, error: z.ZodError): TaskIssue[] {
  return error.issues.map((iss) => ({
    file,
    entry: e.entry,
    entryLabel: e.entryLabel,
    taskId: taskIdOf(e.value),
    field: fieldPath(iss.path) || '(entry)',
    message: iss.message,
  }));
}

function resolveStorageState(state: string | null, authDir: string): string | null {
  if (state === null || state === '') return null;
  return path.resolve(authDir, state);
}

const inside = (root: string, file: string): boolean => {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/** Why a resolved storage_state may not be read, or null: it must be under one of `roots`. */
function refusedStorageState(file: string | null, roots: readonly string[]): string | null {
  if (file === null || roots.some((root) => inside(root, file))) return null;
  return `${file} lies outside ${roots.join(' and ')}: a storage_state must be inside the task file's folder or the run's login folder`;
}

/**
 * Every URL an entry names, by field: its start URLs, and the evaluator's reference and pages to
 * open. WebArena's host placeholders (`__SHOPPING__/…`) stand for a configured http(s) host, and
 * program_html's `last` and `func:…` are not URLs.
 */
function namedUrls(
  format: TaskFileFormat,
  t: {
    start_url?: string;
    web?: string;
    eval?: { reference_url: string | null; program_html: { url: string }[] | null };
  },
): { field: string; url: string }[] {
  const out: { field: string; url: string }[] = [];
  if (format === 'webvoyager') {
    if (t.web !== undefined) out.push({ field: 'web', url: t.web });
    return out;
  }
  for (const url of (t.start_url ?? '').split(' |AND| ')) out.push({ field: 'start_url', url: url.trim() });
  for (const url of (t.eval?.reference_url ?? '').split(' |OR| '))
    if (url.trim() !== '') out.push({ field: 'eval.reference_url', url: url.trim() });
  (t.eval?.program_html ?? []).forEach((target, i) => {
    if (target.url !== 'last' && !target.url.startsWith('func:'))
      out.push({ field: `eval.program_html[${i}].url`, url: target.url });
  });
  return out;
}

function urlIssues(
  file: string,
  e: RawEntry,
  named: { field: string; url: string }[],
  schemes: readonly string[],
): TaskIssue[] {
  const issues: TaskIssue[] = [];
  for (const { field, url } of named) {
    if (/^__[A-Z][A-Z_]*__/.test(url)) continue;
    // WebArena's reference_url is compared, never opened, and a few hold prose: only a scheme counts.
    if (field === 'eval.reference_url' && !/^[a-z][a-z0-9+.-]*:/i.test(url)) continue;
    const refused = refusedUrl(url, schemes);
    if (refused !== null)
      issues.push({
        file,
        entry: e.entry,
        entryLabel: e.entryLabel,
        taskId: taskIdOf(e.value),
        field,
        message: refused,
      });
  }
  return issues;
}

/** Reads and validates a task file, collecting every problem instead of stopping at the first. */
export function validateTaskFile(file: string, opts: TaskLoadOptions = {}): TaskFileReport {
  const issues: TaskIssue[] = [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    issues.push({
      file,
      entry: -1,
      entryLabel: 'whole file',
      taskId: null,
      field: '',
      message: (e as Error).message,
    });
    return { file, format: opts.format ?? 'webarena-raw', tasks: [], issues };
  }
  const entries = readEntries(file, text, issues);
  const format = opts.format ?? guessFormat(file, entries[0]?.value);
  const fileDir = path.dirname(path.resolve(file));
  const authDir = opts.authDir ?? fileDir;
  const storageRoots = [...new Set([fileDir, path.resolve(authDir)])];
  const schemes = opts.urlSchemes ?? WEB_SCHEMES;
  const tasks: Task[] = [];
  const seen = new Map<string, string>();

  let rewrite = new Map<string, string>();
  try {
    if (format === 'webarena-raw' && opts.hosts) rewrite = placeholderMap(opts.hosts);
    if (format !== 'webarena-raw' && opts.hostRewrite) rewrite = new Map(Object.entries(opts.hostRewrite));
  } catch (e) {
    issues.push({
      file,
      entry: -1,
      entryLabel: 'host map',
      taskId: null,
      field: '',
      message: (e as Error).message,
    });
  }

  for (const e of entries) {
    const source = { file, entry: e.entry, format };
    let task: Task | null = null;
    if (format === 'webvoyager') {
      const r = WebVoyagerTaskSchema.safeParse(e.value);
      if (!r.success) {
        issues.push(...zodIssues(file, e, r.error));
        continue;
      }
      const t = rewriteStrings(r.data, rewrite);
      const refused = urlIssues(file, e, namedUrls(format, t), schemes);
      if (refused.length > 0) {
        issues.push(...refused);
        continue;
      }
      task = {
        kind: 'webvoyager',
        id: t.id,
        intent: t.ques,
        sites: [t.web_name],
        startUrls: [t.web],
        requireLogin: false,
        storageState: null,
        eval: null,
        intentTemplateId: null,
        source,
      };
    } else {
      const schema = format === 'tti-webarena' ? TtiWebArenaTaskSchema : WebArenaRawTaskSchema;
      const r = schema.safeParse(e.value);
      if (!r.success) {
        issues.push(...zodIssues(file, e, r.error));
        continue;
      }
      const t = rewriteStrings(r.data, rewrite);
      const storageState = resolveStorageState(t.storage_state, authDir);
      const refusedState = refusedStorageState(storageState, storageRoots);
      const refused = [
        ...urlIssues(file, e, namedUrls(format, t), schemes),
        ...(refusedState === null
          ? []
          : [
              {
                file,
                entry: e.entry,
                entryLabel: e.entryLabel,
                taskId: taskIdOf(e.value),
                field: 'storage_state',
                message: refusedState,
              },
            ]),
      ];
      if (refused.length > 0) {
        issues.push(...refused);
        continue;
      }
      task = {
        kind: 'webarena',
        confined: true,
        id: String(t.task_id),
        intent: t.intent,
        sites: t.sites,
        startUrls: t.start_url.split(' |AND| ').map((u) => u.trim()),
        requireLogin: t.require_login,
        storageState,
        eval: t.eval,
        intentTemplateId: t.intent_template_id,
        source,
      };
    }
    const prev = seen.get(task.id);
    if (prev !== undefined) {
      issues.push({
        file,
        entry: e.entry,
        entryLabel: e.entryLabel,
        taskId: task.id,
        field: format === 'webvoyager' ? 'id' : 'task_id',
        message: `duplicate task id (also at ${prev})`,
      });
      continue;
    }
    seen.set(task.id, e.entryLabel);
    tasks.push(task);
  }
  return { file, format, tasks, issues };
}

/** Loads a task file; throws a TaskFileError naming file, entry and field when anything is wrong. */
export function loadTaskFile(file: string, opts: TaskLoadOptions = {}): Task[] {
  const report = validateTaskFile(file, opts);
  if (report.issues.length > 0) throw new TaskFileError(report.issues);
  return report.tasks;
}

export interface TaskSummary {
  tasks: number;
  /** Keyed by the `+`-joined eval_types list, e.g. "url_match+program_html". */
  byEvalType: Record<string, number>;
  /** Keyed by sites[0]. */
  bySite: Record<string, number>;
}

export function summarizeTasks(tasks: readonly Task[]): TaskSummary {
  const byEvalType: Record<string, number> = {};
  const bySite: Record<string, number> = {};
  for (const t of tasks) {
    const ev = t.eval ? t.eval.eval_types.join('+') : 'judge';
    byEvalType[ev] = (byEvalType[ev] ?? 0) + 1;
    const site = t.sites[0] ?? '';
    bySite[site] = (bySite[site] ?? 0) + 1;
  }
  return { tasks: tasks.length, byEvalType, bySite };
}

/** What `tti-run tasks validate FILE... --json` prints: counts over every file and every problem. */
export interface TaskValidation extends TaskSummary {
  errors: TaskIssue[];
}

export function validateTaskFiles(files: readonly string[], opts: TaskLoadOptions = {}): TaskValidation {
  const tasks: Task[] = [];
  const errors: TaskIssue[] = [];
  for (const f of files) {
    const r = validateTaskFile(f, opts);
    tasks.push(...r.tasks);
    errors.push(...r.issues);
  }
  return { ...summarizeTasks(tasks), errors };
}
