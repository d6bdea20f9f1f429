// Success rates by tier and by template, as `tti-run eval --json` prints them and metrics.jsonl
// keeps them. A task's tier and template come from its file: MiniArena's `miniarena` block, or
// WebArena's intent_template_id (no tier).
import { readFileSync } from 'node:fs';
import type { EpisodeResultMessage } from '../protocol.js';

export interface TaskLabel {
  template: string;
  tier: number | null;
}

/** Keyed by `${file}#${taskId}`. */
export type TaskLabels = Map<string, TaskLabel>;

export const labelKey = (file: string, taskId: string): string => `${file}#${taskId}`;

export interface Rate {
  episodes: number;
  successes: number;
  success: number;
}

export interface EvalSummary extends Rate {
  meanSteps: number;
  byTier: Record<string, Rate>;
  byTemplate: Record<string, Rate>;
}

function entriesOf(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as unknown[];
  return trimmed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** Labels for every task of a (validated) task file. */
export function readTaskLabels(file: string, labels: TaskLabels = new Map()): TaskLabels {
  for (const entry of entriesOf(readFileSync(file, 'utf8'))) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const id = e.task_id ?? e.id;
    if (id === undefined) continue;
    const mini = (typeof e.miniarena === 'object' && e.miniarena !== null ? e.miniarena : {}) as Record<
      string,
      unknown
    >;
    const template =
      typeof mini.template === 'string'
        ? mini.template
        : e.intent_template_id !== undefined
          ? `template ${String(e.intent_template_id)}`
          : 'unknown';
    labels.set(labelKey(file, String(id)), {
      template,
      tier: typeof mini.tier === 'number' ? mini.tier : null,
    });
  }
  return labels;
}

function rate(episodes: number, successes: number): Rate {
  return { episodes, successes, success: episodes > 0 ? successes / episodes : 0 };
}

export function summarizeEpisodes(results: readonly EpisodeResultMessage[], labels: TaskLabels): EvalSummary {
  const tiers = new Map<string, [number, number]>();
  const templates = new Map<string, [number, number]>();
  const add = (map: Map<string, [number, number]>, key: string, success: boolean) => {
    const [n, s] = map.get(key) ?? [0, 0];
    map.set(key, [n + 1, s + (success ? 1 : 0)]);
  };
  let successes = 0;
  let steps = 0;
  for (const r of results) {
    const success = r.reward > 0;
    if (success) successes++;
    steps += r.steps;
    const label = labels.get(labelKey(r.taskFile, r.taskId));
    add(tiers, label?.tier == null ? 'none' : String(label.tier), success);
    add(templates, label?.template ?? 'unknown', success);
  }
  const table = (map: Map<string, [number, number]>) =>
    Object.fromEntries(
      [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, [n, s]]) => [k, rate(n, s)]),
    );
  return {
    ...rate(results.length, successes),
    meanSteps: results.length > 0 ? steps / results.length : 0,
    byTier: table(tiers),
    byTemplate: table(templates),
  };
}
