// Success rates by tier and by template, as `tti-run eval --json` prints them and metrics.jsonl
// keeps them. A task's tier and template come from its file (src/envs/tasks/labels.ts); a task
// without them counts under tier "none" and template "unknown".
import { labelKey, type TaskLabels } from '../envs/without-browser.js';
import type { EpisodeOutcome } from './episode.js';

export type { TaskLabel, TaskLabels } from '../envs/without-browser.js';
export { labelKey, readTaskLabels, templateIn } from '../envs/without-browser.js';

export interface Rate {
  episodes: number;
  successes: number;
  success: number;
}

export interface EvalSummary extends Rate {
  meanSteps: number;
  /** answers that passed the evaluator only by a lucky substring (src/envs/evaluators/lucky.ts): not successes */
  lucky: number;
  /** the same by template, where there are any */
  luckyByTemplate: Record<string, number>;
  byTier: Record<string, Rate>;
  byTemplate: Record<string, Rate>;
  /** results with a page's own score: success and mean raw reward per task, keyed by the task's template (its page) */
  byTask?: Record<string, Rate & { meanReward: number }>;
}

function rate(episodes: number, successes: number): Rate {
  return { episodes, successes, success: episodes > 0 ? successes / episodes : 0 };
}

export function summarizeEpisodes(results: readonly EpisodeOutcome[], labels: TaskLabels): EvalSummary {
  const tiers = new Map<string, [number, number]>();
  const templates = new Map<string, [number, number]>();
  const add = (map: Map<string, [number, number]>, key: string, success: boolean) => {
    const [n, s] = map.get(key) ?? [0, 0];
    map.set(key, [n + 1, s + (success ? 1 : 0)]);
  };
  let successes = 0;
  let steps = 0;
  const lucky = new Map<string, number>();
  for (const r of results) {
    const success = r.reward > 0;
    if (success) successes++;
    steps += r.steps;
    const label = labels.get(labelKey(r.taskFile, r.taskId));
    const template = label?.template ?? 'unknown';
    if (r.lucky) lucky.set(template, (lucky.get(template) ?? 0) + 1);
    add(tiers, label?.tier == null ? 'none' : String(label.tier), success);
    add(templates, template, success);
  }
  const table = (map: Map<string, [number, number]>) =>
    Object.fromEntries(
      [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, [n, s]]) => [k, rate(n, s)]),
    );
  const summary: EvalSummary = {
    ...rate(results.length, successes),
    meanSteps: results.length > 0 ? steps / results.length : 0,
    lucky: [...lucky.values()].reduce((a, b) => a + b, 0),
    luckyByTemplate: Object.fromEntries([...lucky.entries()].sort(([a], [b]) => a.localeCompare(b))),
    byTier: table(tiers),
    byTemplate: table(templates),
  };
  const scored = results.filter((r) => r.score !== undefined);
  if (scored.length > 0) {
    const tasks = new Map<string, { n: number; s: number; reward: number }>();
    for (const r of scored) {
      // A page's seeded instances ("<task>@<seed>") share its template: the table is per task, over its seeds.
      const name = labels.get(labelKey(r.taskFile, r.taskId))?.template ?? r.taskId.replace(/@\d+$/, '');
      const t = tasks.get(name) ?? { n: 0, s: 0, reward: 0 };
      tasks.set(name, { n: t.n + 1, s: t.s + (r.reward > 0 ? 1 : 0), reward: t.reward + (r.score ?? 0) });
    }
    summary.byTask = Object.fromEntries(
      [...tasks.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, t]) => [k, { ...rate(t.n, t.s), meanReward: t.reward / t.n }]),
    );
  }
  return summary;
}
