import type { Action, BrowserEnvConfig, Observation, ObservationNode } from '../../envs/index.js';
import { SeededRandom } from '../../util/index.js';
import type { MiniArenaTask, Tier } from '../templates/types.js';
import {
  type ArenaSlot,
  closeSlots,
  openSlots,
  readSplit,
  runOnSlots,
  type Split,
  selectTasks,
} from './pool.js';

const CLICKABLE = new Set(['link', 'button', 'radio', 'checkbox']);
const TYPEABLE = new Set(['textbox', 'searchbox', 'spinbutton']);

/** Words of the task a person might type: the intent's words and the filled-in slot values. */
export function taskWords(t: Pick<MiniArenaTask, 'intent' | 'instantiation_dict'>): string[] {
  const words = t.intent.split(/[^A-Za-z0-9&.@'-]+/).filter((w) => w.length >= 3);
  const values = Object.values(t.instantiation_dict).map(String);
  return [...new Set([...words, ...values])];
}

/**
 * One uniformly random plausible action on this observation: first a kind among those the page
 * allows (click a link/button/radio/checkbox, type a task word into a text field, go back, scroll,
 * stop), then uniformly within the kind: which element, which word, Enter or not, which direction,
 * and for stop, which text of the page to answer with.
 */
export function randomAction(obs: Observation, words: readonly string[], rng: SeededRandom): Action {
  const withBox = (n: ObservationNode) => n.bounds !== null && n.bounds[2] > 0 && n.bounds[3] > 0;
  const clicks = obs.nodes.filter((n) => CLICKABLE.has(n.role) && withBox(n));
  const fields = obs.nodes.filter((n) => TYPEABLE.has(n.role) && withBox(n));
  const texts = obs.nodes
    .filter((n) => (n.role === 'StaticText' || n.role === 'cell' || n.role === 'heading') && n.name.trim())
    .map((n) => n.name.trim());
  const kinds: Array<() => Action> = [
    () => ({ type: 'go_back' }),
    () => ({ type: 'scroll', direction: rng.chance(0.5) ? 'down' : 'up', by: 'page' }),
    () => ({ type: 'stop', answer: texts.length ? rng.pick(texts) : '' }),
  ];
  if (clicks.length) kinds.push(() => ({ type: 'click', elementId: rng.pick(clicks).id }));
  if (fields.length && words.length)
    kinds.push(() => ({
      type: 'type',
      elementId: rng.pick(fields).id,
      text: rng.pick(words),
      pressEnter: rng.chance(0.5),
      clearFirst: false,
    }));
  return rng.pick(kinds)();
}

export interface RandomEpisode {
  task_id: number;
  template: string;
  tier: Tier;
  episode: number;
  success: boolean;
  steps: number;
  endReason: string;
}

async function runRandomEpisode(
  slot: ArenaSlot,
  item: { raw: MiniArenaTask; episode: number },
  opts: { horizon: number; seed: number },
): Promise<RandomEpisode> {
  const { raw, episode } = item;
  const base = { task_id: raw.task_id, template: raw.miniarena.template, tier: raw.miniarena.tier, episode };
  const task = slot.tasks.get(String(raw.task_id));
  if (!task) return { ...base, success: false, steps: 0, endReason: 'missing task' };
  const rng = new SeededRandom(opts.seed).fork(`${raw.task_id}/${episode}`);
  const words = taskWords(raw);
  await slot.host.reset();
  try {
    let obs = await slot.env.reset(task, { horizon: opts.horizon });
    for (let steps = 1; ; steps++) {
      const r = await slot.env.step(randomAction(obs, words, rng));
      if (r.done) {
        const rec = r.record!;
        return { ...base, success: rec.verdict.success, steps, endReason: rec.endReason };
      }
      obs = r.observation!;
    }
  } catch (e) {
    await slot.env.abandon();
    return { ...base, success: false, steps: 0, endReason: `error: ${e instanceof Error ? e.message : e}` };
  }
}

export interface RandomPolicyOptions {
  split?: Split;
  /** Tasks to sample (templates take turns, as in checkTasks); all when absent. */
  limit?: number;
  episodesPerTask?: number;
  /** Most steps per episode (the env's horizon). Default 30. */
  horizon?: number;
  seed?: number;
  concurrency?: number;
  dir?: string;
  env?: BrowserEnvConfig;
  onEpisode?: (e: RandomEpisode, done: number, total: number) => void;
}

export interface RandomTierStats {
  tasks: number;
  episodes: number;
  successes: number;
  rate: number;
  meanSteps: number;
}

export interface RandomPolicyResult {
  split: Split;
  horizon: number;
  tasks: number;
  episodes: number;
  successes: number;
  rate: number;
  byTier: Record<Tier, RandomTierStats>;
  /** Templates with at least one success. */
  solvedTemplates: Record<string, number>;
  episodeList: RandomEpisode[];
  durationMs: number;
}

/**
 * The random-policy baseline: for each sampled task, `episodesPerTask` episodes of uniformly
 * random plausible actions (see randomAction) on a freshly reset instance, with the env's default
 * settings (WebArena's early stops included) and the given horizon; success from the evaluators.
 */
export async function randomPolicySuccess(opts: RandomPolicyOptions = {}): Promise<RandomPolicyResult> {
  const started = Date.now();
  const split = opts.split ?? 'test';
  const horizon = opts.horizon ?? 30;
  const seed = opts.seed ?? 0;
  const per = Math.max(1, opts.episodesPerTask ?? 1);
  const tasks = selectTasks(readSplit(split, opts.dir), { limit: opts.limit });
  const items = tasks.flatMap((raw) => Array.from({ length: per }, (_, episode) => ({ raw, episode })));
  const n = Math.max(1, Math.min(opts.concurrency ?? 2, items.length || 1));
  const slots = await openSlots(n, { split, dir: opts.dir, env: { horizon, ...opts.env } });
  let episodes: RandomEpisode[];
  try {
    episodes = await runOnSlots(
      slots,
      items,
      (slot, item) => runRandomEpisode(slot, item, { horizon, seed }),
      (e, done) => opts.onEpisode?.(e, done, items.length),
    );
  } finally {
    await closeSlots(slots);
  }
  const byTier = {} as Record<Tier, RandomTierStats>;
  for (const tier of [1, 2, 3] as const) {
    const mine = episodes.filter((e) => e.tier === tier);
    const ok = mine.filter((e) => e.success).length;
    byTier[tier] = {
      tasks: new Set(mine.map((e) => e.task_id)).size,
      episodes: mine.length,
      successes: ok,
      rate: mine.length ? Math.round((ok / mine.length) * 10_000) / 10_000 : 0,
      meanSteps: mine.length
        ? Math.round((mine.reduce((s, e) => s + e.steps, 0) / mine.length) * 10) / 10
        : 0,
    };
  }
  const solvedTemplates: Record<string, number> = {};
  for (const e of episodes)
    if (e.success) solvedTemplates[e.template] = (solvedTemplates[e.template] ?? 0) + 1;
  const successes = episodes.filter((e) => e.success).length;
  return {
    split,
    horizon,
    tasks: tasks.length,
    episodes: episodes.length,
    successes,
    rate: episodes.length ? Math.round((successes / episodes.length) * 10_000) / 10_000 : 0,
    byTier,
    solvedTemplates,
    episodeList: episodes,
    durationMs: Date.now() - started,
  };
}
