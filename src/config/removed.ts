// Keys tti no longer has: mechanisms their own study found no gain for (issue 52). A run directory
// written before then keeps every key in its config.yaml; one at the value that changed nothing
// is dropped, so the run resumes as it ran. One that set the mechanism is refused with what
// happened and how to go on, not as an unknown key.
import { isDeepStrictEqual } from 'node:util';

interface RemovedKey {
  /** the value under which the mechanism did nothing (the old default) */
  inert: unknown;
  /** what it was and why it went */
  why: string;
}

export const REMOVED_KEYS: Readonly<Record<string, RemovedKey>> = {
  temperature_spread: {
    inert: [1],
    why: 'per-episode temperature factors, no gain over five seeds (experiments/temperature-spread)',
  },
  task_sampling: {
    inert: 'uniform',
    why: 'learnability and unsolved-first task sampling, no gain (experiments/unsolved-first)',
  },
  'model.top_p': { inert: 1, why: "the tfjs policy's nucleus sampling, no gain (experiments/sampling)" },
  'model.word_dropout': { inert: 0, why: 'word dropout in the online learner, set by no config or study' },
};

/** The commit before the removal: where a run that used a removed key can resume as it ran. */
export const BEFORE_REMOVAL = 'e2cc483';

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `tree` without the removed keys it holds at their inert values; the problems of those it holds
 * at any other value, one line each, naming the key and its value.
 */
export function dropRemovedKeys(tree: Tree): { tree: Tree; problems: string[] } {
  const out = structuredClone(tree);
  const problems: string[] = [];
  for (const [key, removed] of Object.entries(REMOVED_KEYS)) {
    const parts = key.split('.');
    const parent = parts.slice(0, -1).reduce<unknown>((node, p) => (isTree(node) ? node[p] : undefined), out);
    const leaf = parts.at(-1)!;
    if (!isTree(parent) || !(leaf in parent)) continue;
    if (!isDeepStrictEqual(parent[leaf], removed.inert))
      problems.push(`key '${key}': got ${JSON.stringify(parent[leaf])}; removed from tti: ${removed.why}`);
    delete parent[leaf];
  }
  return { tree: out, problems };
}
