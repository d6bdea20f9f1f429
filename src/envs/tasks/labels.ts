// A task's template and tier, for eval tables, the episode viewer and reports. Each task source
// says them its own way, so each has a rule; a source no rule knows (WebVoyager, MiniWoB++ until
// it has one) gets nulls, which tables and the viewer show as "–".
import { readFileSync } from 'node:fs';

export interface TaskLabel {
  /** the task's template (MiniArena's template name, WebArena's "template N"); null: unknown */
  template: string | null;
  /** MiniArena's difficulty tier; null: the source has none */
  tier: number | null;
}

/** Keyed by `${file}#${taskId}`. */
export type TaskLabels = Map<string, TaskLabel>;

export const labelKey = (file: string, taskId: string): string => `${file}#${taskId}`;

export const NO_LABEL: TaskLabel = { template: null, tier: null };

/** The template of a task of a file, or null when unknown. */
export function templateIn(labels: TaskLabels, task: { file: string; id: string }): string | null {
  return labels.get(labelKey(task.file, task.id))?.template ?? null;
}

type Entry = Record<string, unknown>;

/** One rule per task source: the entry's label, or null when the entry is not that source's. */
const RULES: readonly ((e: Entry) => TaskLabel | null)[] = [
  // MiniArena: { ..., "miniarena": { "template": "shop_order_contents", "tier": 2, ... } }
  (e) => {
    const mini = e.miniarena;
    if (typeof mini !== 'object' || mini === null) return null;
    const m = mini as Entry;
    return {
      template: typeof m.template === 'string' ? m.template : null,
      tier: typeof m.tier === 'number' ? m.tier : null,
    };
  },
  // WebArena: intent_template_id (tasks made from one intent template share it); no tiers.
  (e) =>
    typeof e.intent_template_id === 'number' || typeof e.intent_template_id === 'string'
      ? { template: `template ${String(e.intent_template_id)}`, tier: null }
      : null,
];

/** The label of one task-file entry (NO_LABEL when no rule knows its source). */
export function labelOf(entry: Entry): TaskLabel {
  for (const rule of RULES) {
    const label = rule(entry);
    if (label !== null) return label;
  }
  return NO_LABEL;
}

function entriesOf(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as unknown[];
  return trimmed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** Labels for every task of a task file (JSON array or jsonl), added to `labels`. Throws on bad JSON. */
export function readTaskLabels(file: string, labels: TaskLabels = new Map()): TaskLabels {
  for (const entry of entriesOf(readFileSync(file, 'utf8'))) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Entry;
    const id = e.task_id ?? e.id;
    if (id === undefined) continue;
    labels.set(labelKey(file, String(id)), labelOf(e));
  }
  return labels;
}
