// Learnability sampling (DigiRL's automatic curriculum, after Tzannetos et al.'s "learnability"):
// a training task is drawn more often the nearer its success rate is to one half, where an
// episode teaches the most. Rates are kept per group of tasks (the task's template where the
// suite labels one, else the task itself) as a Beta(1, 1) posterior mean, so a group never tried
// counts as p = ½ and is tried early. A floor keeps groups the policy always or never solves in
// the draw, since a rate measured on a few episodes can be wrong.
import type { TaskRef } from './task-sampler.js';

export interface GroupRecord {
  attempts: number;
  successes: number;
}

/** Per group: attempts and successes over the run's collection episodes. */
export type GroupRecords = Record<string, GroupRecord>;

/** A group's share of the draw before normalisation: p(1−p), at least FLOOR. */
export const LEARNABILITY_FLOOR = 0.02;

/** A group's success rate as the Beta(1, 1) posterior mean: ½ before any attempt. */
export function successRate(record: GroupRecord | undefined): number {
  return ((record?.successes ?? 0) + 1) / ((record?.attempts ?? 0) + 2);
}

export function learnability(record: GroupRecord | undefined): number {
  const p = successRate(record);
  return Math.max(p * (1 - p), LEARNABILITY_FLOOR);
}

/** `count` tasks: a group drawn with probability ∝ `weightOf(group)`, then a task of it uniformly. */
export function drawByGroupWeight(
  tasks: readonly TaskRef[],
  groupOf: (task: TaskRef) => string,
  weightOf: (group: string) => number,
  count: number,
  random: () => number,
): TaskRef[] {
  if (tasks.length === 0) throw new Error('no tasks to sample from');
  const groups = new Map<string, TaskRef[]>();
  for (const task of tasks) {
    const g = groupOf(task);
    const members = groups.get(g);
    if (members) members.push(task);
    else groups.set(g, [task]);
  }
  const names = [...groups.keys()];
  const weights = names.map(weightOf);
  const total = weights.reduce((a, b) => a + b, 0);
  const draws: TaskRef[] = [];
  for (let k = 0; k < count; k++) {
    let u = random() * total;
    let i = 0;
    while (i < names.length - 1 && u >= weights[i]!) {
      u -= weights[i]!;
      i += 1;
    }
    const members = groups.get(names[i]!)!;
    draws.push(members[Math.floor(random() * members.length)]!);
  }
  return draws;
}

/** Adds a phase's outcomes to the records. */
export function recordOutcomes(
  records: GroupRecords,
  outcomes: readonly { group: string; success: boolean }[],
): void {
  for (const { group, success } of outcomes) {
    const r = records[group] ?? { attempts: 0, successes: 0 };
    r.attempts += 1;
    if (success) r.successes += 1;
    records[group] = r;
  }
}
