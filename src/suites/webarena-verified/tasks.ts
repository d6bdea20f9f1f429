// WebArena-Verified's task file (webarena-verified.json: a JSON array of typed entries) and its
// subsets (webarena-verified-hard.json: `{ description, task_ids }`), read and checked, every problem
// named by file, entry and field; the placeholders (__GITLAB__, …) filled from the configured hosts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  labelKey,
  type Task,
  type TaskIssue,
  type TaskLabels,
  type VerifiedEvaluatorConfig,
  VerifiedSubsetSchema,
  type VerifiedTask,
  VerifiedTaskSchema,
} from '../../envs/index.js';

export const VERIFIED_FORMAT = 'webarena-verified';

export interface VerifiedFileReport {
  file: string;
  tasks: VerifiedTask[];
  issues: TaskIssue[];
}

function issue(
  file: string,
  entry: number,
  taskId: string | null,
  field: string,
  message: string,
): TaskIssue {
  return { file, entry, entryLabel: entry < 0 ? 'whole file' : `entry ${entry}`, taskId, field, message };
}

function readJson(file: string, issues: TaskIssue[]): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (e) {
    issues.push(issue(file, -1, null, '', (e as Error).message));
    return undefined;
  }
}

/** Whether a file is in the verified format: an array whose first entry has an `eval` list, or a subset. */
export function isVerifiedFile(file: string): boolean {
  if (!file.endsWith('.json') || !existsSync(file)) return false;
  try {
    const head = readFileSync(file, 'utf8').slice(0, 4096);
    return (
      /"evaluator"\s*:\s*"(AgentResponseEvaluator|NetworkEventEvaluator)"/.test(head) ||
      /"task_ids"\s*:/.test(head)
    );
  } catch {
    return false;
  }
}

function fieldPath(p: readonly PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');
}

/** The tasks of a verified task file, every problem of every entry named. */
export function readVerifiedTasks(file: string): VerifiedFileReport {
  const issues: TaskIssue[] = [];
  const json = readJson(file, issues);
  if (json === undefined) return { file, tasks: [], issues };
  if (!Array.isArray(json)) {
    issues.push(issue(file, -1, null, '', 'expected a JSON array of tasks'));
    return { file, tasks: [], issues };
  }
  const tasks: VerifiedTask[] = [];
  const seen = new Map<number, number>();
  json.forEach((value, i) => {
    const r = VerifiedTaskSchema.safeParse(value);
    const id = (value as { task_id?: unknown } | null)?.task_id;
    const taskId = typeof id === 'number' || typeof id === 'string' ? String(id) : null;
    if (!r.success) {
      for (const iss of r.error.issues)
        issues.push(issue(file, i, taskId, fieldPath(iss.path) || '(entry)', iss.message));
      return;
    }
    const prev = seen.get(r.data.task_id);
    if (prev !== undefined) {
      issues.push(issue(file, i, taskId, 'task_id', `duplicate task id (also at entry ${prev})`));
      return;
    }
    seen.set(r.data.task_id, i);
    tasks.push(r.data);
  });
  return { file, tasks, issues };
}

/** The task file a subset draws from: webarena-verified.json beside it. */
export function subsetSource(file: string): string {
  return path.join(path.dirname(file), 'webarena-verified.json');
}

/**
 * The tasks of a file that is either a task file or a subset of one (the Hard split): a subset's
 * ids must all be in its source.
 */
export function readVerifiedSplit(file: string): VerifiedFileReport {
  const issues: TaskIssue[] = [];
  const json = readJson(file, issues);
  if (json === undefined || Array.isArray(json))
    return json === undefined ? { file, tasks: [], issues } : readVerifiedTasks(file);
  const subset = VerifiedSubsetSchema.safeParse(json);
  if (!subset.success) {
    for (const iss of subset.error.issues)
      issues.push(issue(file, -1, null, fieldPath(iss.path), iss.message));
    return { file, tasks: [], issues };
  }
  const source = readVerifiedTasks(subsetSource(file));
  const byId = new Map(source.tasks.map((t) => [t.task_id, t]));
  const tasks: VerifiedTask[] = [];
  subset.data.task_ids.forEach((id, i) => {
    const t = byId.get(id);
    if (t) tasks.push(t);
    else issues.push(issue(file, i, String(id), 'task_ids', `no task ${id} in ${source.file}`));
  });
  return { file, tasks, issues: [...source.issues, ...issues] };
}

/** Counts of `tasks validate`: evaluator entries by name, tasks by expected task type and status. */
export interface VerifiedCounts {
  byEvaluator: Record<string, number>;
  byTaskType: Record<string, number>;
  byStatus: Record<string, number>;
}

export function countVerified(tasks: readonly VerifiedTask[], into?: VerifiedCounts): VerifiedCounts {
  const out = into ?? { byEvaluator: {}, byTaskType: {}, byStatus: {} };
  const bump = (m: Record<string, number>, k: string) => {
    m[k] = (m[k] ?? 0) + 1;
  };
  for (const t of tasks) {
    // evaluator entries, as the published counts are (a task may check several network events)
    for (const e of t.eval) bump(out.byEvaluator, e.evaluator);
    const response = agentResponseConfig(t.eval);
    bump(out.byTaskType, response.expected.task_type);
    bump(out.byStatus, response.expected.status);
  }
  return out;
}

export function agentResponseConfig(evals: readonly VerifiedEvaluatorConfig[]) {
  const found = evals.find((e) => e.evaluator === 'AgentResponseEvaluator');
  if (found?.evaluator !== 'AgentResponseEvaluator')
    throw new Error('the task has no AgentResponseEvaluator');
  return found;
}

/** Every placeholder replaced in every string inside `value`. */
export function rendered<T>(value: T, hosts: ReadonlyMap<string, string>): T {
  const keys = [...hosts.keys()].sort((a, b) => b.length - a.length);
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return keys.reduce((s, k) => s.split(k).join(hosts.get(k)!), v);
    if (Array.isArray(v)) return v.map(visit);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    return v;
  };
  return visit(value) as T;
}

/** The sites WebArena logs into, each by a storage state its auto_login script makes. */
const LOGIN_SITES = new Set(['shopping', 'shopping_admin', 'reddit', 'gitlab']);

/**
 * The episode's Task: start URLs with hosts filled in; its evaluators stay in the suite (eval: null).
 * The entries name no login (their harness logs in); with `authDir`, a task on sites that need one
 * starts from WebArena's storage state for them, as WebArena's own entries name it
 * (`.auth/gitlab.reddit_state.json`: the sites sorted, joined by "."), null without.
 */
export function verifiedTask(
  t: VerifiedTask,
  file: string,
  entry: number,
  hosts: ReadonlyMap<string, string>,
  authDir: string | null = null,
): Task {
  const logins = t.sites.filter((s) => LOGIN_SITES.has(s)).sort();
  const storageState =
    authDir === null || logins.length === 0
      ? null
      : path.resolve(authDir, '.auth', `${logins.join('.')}_state.json`);
  return {
    kind: VERIFIED_FORMAT,
    confined: true,
    id: String(t.task_id),
    intent: t.intent,
    sites: t.sites,
    startUrls: t.start_urls.map((u) => rendered(u, hosts)),
    requireLogin: storageState !== null,
    storageState,
    eval: null,
    // a mutate task leaves its sites changed: it holds them alone and they are reset after it
    changesSites: agentResponseConfig(t.eval).expected.task_type === 'mutate',
    intentTemplateId: t.intent_template_id,
    source: { file, entry, format: VERIFIED_FORMAT },
  };
}

/** Each task's template, for the eval tables. */
export function verifiedLabels(file: string, tasks: readonly VerifiedTask[], labels: TaskLabels): void {
  for (const t of tasks)
    labels.set(labelKey(file, String(t.task_id)), {
      template: `template ${t.intent_template_id}`,
      tier: null,
    });
}
