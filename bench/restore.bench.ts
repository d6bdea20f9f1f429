// What going back to an earlier state costs (issue 23: search expands prefixes): on MiniArena,
// the host's reset plus BrowserEnv.reset (depth 0), and replayPrefix to depth k of an oracle
// episode (the same reset, then k recorded actions with their elements found again), on tier-3
// train tasks of 8 steps or more. Depths alternate within each round; medians per depth, and the
// cost per replayed step from the deepest depth.
import { loadavg } from 'node:os';
import {
  type ArenaSlot,
  closeSlots,
  ORACLE_ENV,
  ORACLE_HORIZON,
  openSlots,
  readSplit,
  recordForReplay,
} from '../src/arena/index.js';
import { replayPrefix } from '../src/envs/index.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface RestoreBench {
  method: string;
  tasks: { template: string; steps: number }[];
  /** depth → median ms over tasks and rounds (host reset + env reset + the replay) */
  msByDepth: Record<string, number>;
  /** (deepest − depth 0) / deepest: ms per replayed step */
  msPerReplayedStep: number;
  /** replays that did not reach their depth (an element not found) */
  diverged: number;
  loadavg: number[];
}

export async function restoreBench(options = { rounds: 3, tasks: 3 }): Promise<RestoreBench> {
  const [slot] = (await openSlots(1, { split: 'train', env: ORACLE_ENV })) as [ArenaSlot];
  try {
    const chosen = readSplit('train')
      .filter((t) => t.miniarena.tier === 3 && (t.miniarena.oracle_steps ?? 0) >= 8)
      .filter((t, i, all) => all.findIndex((u) => u.miniarena.template === t.miniarena.template) === i)
      .slice(0, options.tasks);
    const recorded = [];
    for (const raw of chosen) recorded.push({ raw, steps: (await recordForReplay(slot, raw)).steps });
    const depths = [0, 2, 4, 8];
    const times = new Map<number, number[]>(depths.map((d) => [d, []]));
    let diverged = 0;
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? depths : [...depths].reverse();
      for (const { raw, steps } of recorded)
        for (const depth of order) {
          const task = slot.tasks.get(String(raw.task_id))!;
          const t0 = performance.now();
          await slot.host.reset();
          const back = await replayPrefix(slot.env, task, steps.slice(0, depth), { horizon: ORACLE_HORIZON });
          times.get(depth)!.push(performance.now() - t0);
          if (back.diverged !== null) diverged += 1;
          await slot.env.abandon();
        }
    }
    const msByDepth = Object.fromEntries(depths.map((d) => [String(d), Math.round(median(times.get(d)!))]));
    const deepest = depths.at(-1)!;
    return {
      method:
        `MiniArena, one browser: host reset + BrowserEnv.reset + replayPrefix to each depth of the oracle's ` +
        `episode, ${options.rounds} rounds over ${recorded.length} tier-3 train tasks, depths alternating; medians`,
      tasks: recorded.map((r) => ({ template: r.raw.miniarena.template, steps: r.steps.length })),
      msByDepth,
      msPerReplayedStep: Math.round(((msByDepth[String(deepest)]! - msByDepth['0']!) / deepest) * 10) / 10,
      diverged,
      loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
    };
  } finally {
    await closeSlots([slot]);
  }
}
