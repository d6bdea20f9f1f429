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
  /** the last commit with it: where a run that used it can resume as it ran */
  at: string;
}

/** e2cc483: the commit before issue 52's core config; cf5ca6d and 1e40b9a: before its later removals. */
const FIRST = 'e2cc483';
const SECOND = 'cf5ca6d';
const THIRD = '1e40b9a';

export const REMOVED_KEYS: Readonly<Record<string, RemovedKey>> = {
  temperature_spread: {
    inert: [1],
    why: 'per-episode temperature factors, no gain over five seeds (experiments/temperature-spread)',
    at: FIRST,
  },
  task_sampling: {
    inert: 'uniform',
    why: 'learnability and unsolved-first task sampling, no gain (experiments/unsolved-first)',
    at: FIRST,
  },
  'model.top_p': {
    inert: 1,
    why: "the tfjs policy's nucleus sampling, no gain (experiments/sampling)",
    at: FIRST,
  },
  'model.word_dropout': {
    inert: 0,
    why: 'word dropout in the online learner, set by no config or study',
    at: FIRST,
  },
  'collect.search_keep': {
    inert: 'from_start',
    why: "exploratory keep (ExACT's exploratory learning) taught no more and taught going back without a dead end (experiments/exploratory-keep)",
    at: SECOND,
  },
  'collect.search_by_url': {
    inert: false,
    why: 'going back to a page by its URL found no more successes (experiments/action-tasks)',
    at: SECOND,
  },
  'collect.search_progress_temperature': {
    inert: 0.1,
    why: 'the progress rank of branch search found no more successes (experiments/action-tasks)',
    at: SECOND,
  },
  'collect.state_probes': {
    inert: false,
    why: 'stop probes of program_html tasks in a second tab found no site-changing task and made iterations 2–5× slower (experiments/action-tasks)',
    at: SECOND,
  },
  'learner.awr_weighting': {
    inert: 'filter',
    why: "AWR's exp weights (Peng et al.) imitate the failures the critic expects, worse than DigiRL's filter (experiments/awr)",
    at: THIRD,
  },
  'learner.awr_temperature': {
    inert: 0.3,
    why: "β of AWR's exp weights, which went with them (experiments/awr)",
    at: THIRD,
  },
  'learner.awr_max_weight': {
    inert: 20,
    why: "the cap of AWR's exp weights, which went with them (experiments/awr)",
    at: THIRD,
  },
  eval_search_pick: {
    inert: 'likelihood',
    why: "test-time search picking by the critic's value lost 7 of 9 decided tasks (experiments/test-time-search)",
    at: SECOND,
  },
};

/** Values a kept key no longer takes, with why (an enum member whose mechanism went). */
export const REMOVED_VALUES: Readonly<Record<string, { value: unknown; why: string; at: string }>> = {
  'collect.search_rank': {
    value: 'progress',
    why: 'the progress rank of branch search found no more successes (experiments/action-tasks)',
    at: SECOND,
  },
};

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `tree` without the removed keys it holds at their inert values; the problems of those it holds
 * at any other value, one line each, naming the key and its value.
 */
export function dropRemovedKeys(tree: Tree): { tree: Tree; problems: string[] } {
  const out = structuredClone(tree);
  const problems: string[] = [];
  const at = (key: string) => {
    const parts = key.split('.');
    const parent = parts.slice(0, -1).reduce<unknown>((node, p) => (isTree(node) ? node[p] : undefined), out);
    const leaf = parts.at(-1)!;
    return isTree(parent) && leaf in parent ? { parent, leaf } : null;
  };
  for (const [key, removed] of Object.entries(REMOVED_KEYS)) {
    const found = at(key);
    if (found === null) continue;
    const value = found.parent[found.leaf];
    if (!isDeepStrictEqual(value, removed.inert))
      problems.push(
        `key '${key}': got ${JSON.stringify(value)}; removed from tti after ${removed.at}: ${removed.why}`,
      );
    delete found.parent[found.leaf];
  }
  for (const [key, removed] of Object.entries(REMOVED_VALUES)) {
    const found = at(key);
    if (found !== null && isDeepStrictEqual(found.parent[found.leaf], removed.value))
      problems.push(
        `key '${key}': got ${JSON.stringify(removed.value)}; that value was removed from tti after ${removed.at}: ${removed.why}`,
      );
  }
  return { tree: out, problems };
}
