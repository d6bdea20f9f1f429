import { SeededRandom } from '../util/index.js';
import { type ForumState, generateForum } from './sites/forum/data.js';
import { generateShop, type ShopState } from './sites/shop/data.js';
import { generateTracker, type TrackerState } from './sites/tracker/data.js';

/** The whole mutable world of one MiniArena instance: plain data, so structuredClone copies it. */
export interface ArenaState {
  seed: number;
  shop: ShopState;
  forum: ForumState;
  tracker: TrackerState;
}

export const DEFAULT_SEED = 20250607;

/** Builds the seeded world. Each site draws from its own forked stream, so changing one site's
 *  generator does not reshuffle the others. */
export function generateArenaState(seed: number = DEFAULT_SEED): ArenaState {
  const root = new SeededRandom(seed);
  return {
    seed,
    shop: generateShop(root.fork('shop')),
    forum: generateForum(root.fork('forum')),
    tracker: generateTracker(root.fork('tracker')),
  };
}

const cache = new Map<number, ArenaState>();

/** The pristine state for a seed, generated once per process. Never mutate it: clone it. */
export function pristineState(seed: number = DEFAULT_SEED): ArenaState {
  let s = cache.get(seed);
  if (!s) {
    s = generateArenaState(seed);
    Object.freeze(s);
    cache.set(seed, s);
  }
  return s;
}
