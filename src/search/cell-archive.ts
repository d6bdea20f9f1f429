// The states a search has reached, as Go-Explore keeps them (Ecoffet et al., 2021): one cell per
// distinct page, the shortest known way to it, and how often it was chosen to explore from. A cell
// chosen seldom is chosen more: the search spreads over the states it has found instead of
// sampling whole episodes from the start, so a task that needs k steps in order costs about k
// findings, not (1/candidates)^k of luck.
import type { Observation, ReplayStep } from '../envs/index.js';

/** One step of the way to a cell, as it can be replayed and shown to the policy again. */
export interface PathStep {
  replay: ReplayStep;
  /** the policy's reply, with the element id of the page it was taken on */
  reply: string;
  policyVersion: number;
  /** the log-probability the policy gave this action when it was taken (a test-time search scores by it) */
  logProb?: number;
}

export interface Cell {
  key: string;
  /** the page's URL */
  url: string;
  /** the steps from the task's start to this page */
  path: PathStep[];
  /** times chosen to explore from */
  chosen: number;
  /** times reached */
  seen: number;
  /** the critic's highest estimate of the episode's reward from this page, once the policy acted on it */
  value?: number;
  /**
   * the actions a burst from here started with (their signatures: role and name, not ids, which
   * change on every load); the next burst starts with another while one is left
   */
  tried: Set<string>;
}

/**
 * How a cell is drawn: 'visits' by Go-Explore's count weights alone; 'value' by those times
 * exp((V − best V) / temperature), so the search goes back first to the pages the critic rates
 * highest (a cell not yet rated counts as the mean of the rated ones).
 */
export type CellRank = { by: 'visits' } | { by: 'value'; temperature: number };

/**
 * A page's cell: its URL and its text with element ids taken out (ids change on every load; the
 * rest of the AX text — roles, names, values, focus, checked — is the state).
 */
export function cellKey(observation: Observation): string {
  return `${observation.url}\n${observation.text.replace(/\[\d+\]/g, '[]')}`;
}

export class CellArchive {
  private readonly cells = new Map<string, Cell>();

  get size(): number {
    return this.cells.size;
  }

  /** Records that `observation` was reached by `path`; true when its cell is new. */
  reach(observation: Observation, path: readonly PathStep[]): boolean {
    const key = cellKey(observation);
    const cell = this.cells.get(key);
    if (cell === undefined) {
      this.cells.set(key, {
        key,
        url: observation.url,
        path: [...path],
        chosen: 0,
        seen: 1,
        tried: new Set(),
      });
      return true;
    }
    cell.seen++;
    // The shortest way in is the one replayed, and the one a success's trajectory starts with.
    if (path.length < cell.path.length) cell.path = [...path];
    return false;
  }

  /** Records the critic's estimate on `observation`'s page; its cell keeps the highest. */
  rate(observation: Observation, value: number): void {
    const cell = this.cells.get(cellKey(observation));
    if (cell !== undefined && !(value <= (cell.value ?? -Infinity))) cell.value = value;
  }

  /** The highest value any cell was rated (null: none was). */
  bestValue(): number | null {
    let best: number | null = null;
    for (const c of this.cells.values())
      if (c.value !== undefined && (best === null || c.value > best)) best = c.value;
    return best;
  }

  /**
   * A cell to explore from, drawn with weight 1/√(chosen+1) + 1/√(seen+1) (Go-Explore's count
   * weights), times the value term when ranked by value, among those at most `maxDepth` steps
   * from the start; null when none is.
   */
  choose(maxDepth: number, random: () => number, rank: CellRank = { by: 'visits' }): Cell | null {
    const open = [...this.cells.values()].filter((c) => c.path.length <= maxDepth);
    if (open.length === 0) return null;
    const weights = open.map((c) => 1 / Math.sqrt(c.chosen + 1) + 1 / Math.sqrt(c.seen + 1));
    if (rank.by === 'value') {
      const rated = open.flatMap((c) => (c.value === undefined ? [] : [c.value]));
      if (rated.length > 0) {
        const best = Math.max(...rated);
        const mean = rated.reduce((a, b) => a + b, 0) / rated.length;
        open.forEach((c, i) => {
          weights[i]! *= Math.exp(((c.value ?? mean) - best) / rank.temperature);
        });
      }
    }
    let r = random() * weights.reduce((a, b) => a + b, 0);
    let pick = open[open.length - 1]!;
    for (const [i, c] of open.entries()) {
      r -= weights[i]!;
      if (r < 0) {
        pick = c;
        break;
      }
    }
    pick.chosen++;
    return pick;
  }

  /** The deepest path among the cells (what the live view shows of a search's progress). */
  deepest(): number {
    let d = 0;
    for (const c of this.cells.values()) d = Math.max(d, c.path.length);
    return d;
  }
}
