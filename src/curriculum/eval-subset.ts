// The fixed eval subset a run's periodic evals use: the same tasks every eval, so the curve
// compares like with like. `uniform` draws tasks; `per_template` draws the same number from every
// template (as WebArena-Lite balances WebArena's templates), so that a template the policy learns
// shows in the eval whatever its share of the split — a uniform draw of 60 from MiniArena's 294
// test tasks holds one or none of most templates, and six held-out templates of 18 tasks each
// take a third of it.
import { SeededRandom } from '../util/index.js';
import type { TaskRef } from './task-sampler.js';

export type EvalSampling = 'uniform' | 'per_template';

export function evalSubset(
  tasks: readonly TaskRef[],
  size: number,
  seed: number,
  sampling: EvalSampling = 'uniform',
  templateOf: (task: TaskRef) => string | null = () => null,
): TaskRef[] {
  if (size === 0 || size >= tasks.length) return [...tasks];
  const random = new SeededRandom(seed ^ 0x5eed);
  const chosen = new Set(
    sampling === 'uniform' ? random.sample(tasks, size) : perTemplate(tasks, size, random, templateOf),
  );
  return tasks.filter((t) => chosen.has(t)); // in file order, as TTI runs test tasks
}

/**
 * Round-robin over the templates (in a seeded order), each template's tasks in a seeded order, until
 * `size` are taken: every template gets ⌊size / templates⌋ or one more (or all it has). Tasks with no
 * known template form one group.
 */
function perTemplate(
  tasks: readonly TaskRef[],
  size: number,
  random: SeededRandom,
  templateOf: (task: TaskRef) => string | null,
): TaskRef[] {
  const groups = new Map<string, TaskRef[]>();
  for (const t of tasks) {
    const key = templateOf(t) ?? '';
    const group = groups.get(key);
    if (group) group.push(t);
    else groups.set(key, [t]);
  }
  const keys = random.sample([...groups.keys()].sort(), groups.size);
  const queues = keys.map((k) => random.sample(groups.get(k)!, groups.get(k)!.length));
  const out: TaskRef[] = [];
  for (let round = 0; out.length < size; round++) {
    let took = false;
    for (const q of queues) {
      if (out.length >= size) break;
      const t = q[round];
      if (t === undefined) continue;
      out.push(t);
      took = true;
    }
    if (!took) break;
  }
  return out;
}
