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
}

export interface Cell {
  key: string;
  /** the steps from the task's start to this page */
  path: PathStep[];
  /** times chosen to explore from */
  chosen: number;
  /** times reached */
  seen: number;
}

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
      this.cells.set(key, { key, path: [...path], chosen: 0, seen: 1 });
      return true;
    }
    cell.seen++;
    // The shortest way in is the one replayed, and the one a success's trajectory starts with.
    if (path.length < cell.path.length) cell.path = [...path];
    return false;
  }

  /**
   * A cell to explore from, drawn with weight 1/√(chosen+1) + 1/√(seen+1) (Go-Explore's count
   * weights) among those at most `maxDepth` steps from the start; null when none is.
   */
  choose(maxDepth: number, random: () => number): Cell | null {
    const open = [...this.cells.values()].filter((c) => c.path.length <= maxDepth);
    if (open.length === 0) return null;
    const weights = open.map((c) => 1 / Math.sqrt(c.chosen + 1) + 1 / Math.sqrt(c.seen + 1));
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
