// Success rates by tier and by template, as `tti-run eval --json` prints them and metrics.jsonl
// keeps them. A task's tier and template come from its file (src/envs/tasks/labels.ts); a task
// without them counts under tier "none" and template "unknown".
import { labelKey, type TaskLabels } from '../../envs/tasks/labels.js';
import type { EpisodeResultMessage } from '../protocol.js';

export type { TaskLabel, TaskLabels } from '../../envs/tasks/labels.js';
export { labelKey, readTaskLabels } from '../../envs/tasks/labels.js';

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
