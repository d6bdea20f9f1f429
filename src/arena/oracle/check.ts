import { type BrowserEnvConfig, errorMessage } from '../../envs/index.js';
import { MINIARENA_QUIET_MS } from '../host.js';
import type { MiniArenaTask, Tier } from '../templates/types.js';
import { Driver, OracleError } from './driver.js';
import {
  type ArenaSlot,
  closeSlots,
  openSlots,
  readSplit,
  runOnSlots,
  type Split,
  selectTasks,
} from './pool.js';
import { recordOracleLengths } from './record-lengths.js';
import { SOLVERS } from './solvers/index.js';
import { toOracleTask } from './watched-solve.js';

/** The oracle's own step cap per episode (the longest template needs about 25). */
export const ORACLE_HORIZON = 60;

/**
 * Env settings for oracle episodes: WebArena's repeated-action early stop is off (a scripted
 * solver legitimately scrolls or pages "Next" several times in a row), MiniArena's quiet window
 * (as a run's env worker has it), everything else is the env's default.
 */
export const ORACLE_ENV: BrowserEnvConfig = {
  horizon: ORACLE_HORIZON,
  quietMs: MINIARENA_QUIET_MS,
  earlyStop: { repeatedActions: 0, parsingFailures: 0 },
};

export interface OracleEpisode {
  task_id: number;
  template: string;
  tier: Tier;
  success: boolean;
  /** Actions taken, the final stop included: the task's measured length when it succeeded. */
  steps: number;
  answer: string | null;
  actions: string[];
  why: string;
  durationMs: number;
}

/** One fresh episode of the oracle on a freshly reset instance, scored by the env's evaluators. */
export async function runOracleEpisode(slot: ArenaSlot, raw: MiniArenaTask): Promise<OracleEpisode> {
  const started = Date.now();
  const base = {
    task_id: raw.task_id,
    template: raw.miniarena.template,
    tier: raw.miniarena.tier,
  };
  const task = slot.tasks.get(String(raw.task_id));
  const solver = SOLVERS[raw.miniarena.template];
  const fail = (why: string, d?: Driver): OracleEpisode => ({
    ...base,
    success: false,
    steps: d?.steps ?? 0,
    answer: null,
    actions: d?.actions ?? [],
    why,
    durationMs: Date.now() - started,
  });
  if (!task) return fail(`task ${raw.task_id} is not in the loaded task files`);
  if (!solver) return fail(`no oracle solver for template ${raw.miniarena.template}`);
  await slot.host.reset();
  let d: Driver | undefined;
  try {
    const first = await slot.env.reset(task, { horizon: ORACLE_HORIZON });
    d = new Driver(slot.env, first);
    await solver(d, toOracleTask(raw));
    const done = d.result;
    if (!done) {
      await slot.env.abandon();
      return fail('the solver finished without answering', d);
    }
    const record = done.record!;
    return {
      ...base,
      success: record.verdict.success,
      steps: d.steps,
      answer: record.answer,
      actions: d.actions,
      why: record.verdict.success ? '' : record.verdict.why,
      durationMs: Date.now() - started,
    };
  } catch (e) {
    await slot.env.abandon();
    const why =
      e instanceof OracleError ? e.message : `${e instanceof Error ? e.name : 'error'}: ${errorMessage(e)}`;
    return fail(why, d);
  }
}

export interface CheckTasksOptions {
  split?: Split;
  /** At most this many tasks; templates take turns so a small limit covers every template. */
  limit?: number;
  /** At most this many tasks of each template (the first ones in the file). */
  perTemplate?: number;
  /** Only these templates. */
  templates?: readonly string[];
  /** Only tasks without a measured oracle length (after `tti-run tasks generate` carried the rest over). */
  unmeasured?: boolean;
  /** MiniArena instances (and browsers) running episodes side by side. Default 2. */
  concurrency?: number;
  /** Task directory; default tasks/miniarena. */
  dir?: string;
  /** Extra env settings (e.g. executablePath). */
  env?: BrowserEnvConfig;
  /** Record the measured lengths (tasks/miniarena/oracle-lengths.json) and regenerate the task files
   *  (`tti-run tasks check --write-lengths`). Meant for a full run of split "all". */
  writeLengths?: boolean;
  /** Called after each episode. */
  onEpisode?: (e: OracleEpisode, done: number, total: number) => void;
}

export interface TierStats {
  tasks: number;
  solved: number;
  /** Oracle steps over the solved tasks of the tier. */
  meanSteps: number | null;
  minSteps: number | null;
  maxSteps: number | null;
}

export interface CheckTasksResult {
  tasks: number;
  solved: number;
  rate: number;
  byTier: Record<Tier, TierStats>;
  byTemplate: Record<string, { tasks: number; solved: number; meanSteps: number | null }>;
  failures: Array<{ task_id: number; template: string; why: string }>;
  /** task_id → the oracle's step count, for the solved tasks. */
  lengths: Record<string, number>;
  episodes: OracleEpisode[];
  durationMs: number;
}

function stepStats(steps: number[]) {
  if (steps.length === 0) return { meanSteps: null, minSteps: null, maxSteps: null };
  return {
    meanSteps: Math.round((steps.reduce((s, x) => s + x, 0) / steps.length) * 100) / 100,
    minSteps: Math.min(...steps),
    maxSteps: Math.max(...steps),
  };
}

export function summarizeEpisodes(episodes: readonly OracleEpisode[], durationMs: number): CheckTasksResult {
  const solved = episodes.filter((e) => e.success);
  const byTier = {} as Record<Tier, TierStats>;
  for (const tier of [1, 2, 3] as const) {
    const mine = episodes.filter((e) => e.tier === tier);
    const ok = mine.filter((e) => e.success);
    byTier[tier] = { tasks: mine.length, solved: ok.length, ...stepStats(ok.map((e) => e.steps)) };
  }
  const byTemplate: CheckTasksResult['byTemplate'] = {};
  for (const e of episodes) {
    const s = byTemplate[e.template] ?? { tasks: 0, solved: 0, meanSteps: null };
    s.tasks += 1;
    if (e.success) s.solved += 1;
    byTemplate[e.template] = s;
  }
  for (const [k, s] of Object.entries(byTemplate))
    s.meanSteps = stepStats(solved.filter((e) => e.template === k).map((e) => e.steps)).meanSteps;
  return {
    tasks: episodes.length,
    solved: solved.length,
    rate: episodes.length ? Math.round((solved.length / episodes.length) * 10_000) / 10_000 : 0,
    byTier,
    byTemplate,
    failures: episodes
      .filter((e) => !e.success)
      .map((e) => ({ task_id: e.task_id, template: e.template, why: e.why })),
    lengths: Object.fromEntries(solved.map((e) => [String(e.task_id), e.steps])),
    episodes: [...episodes],
    durationMs,
  };
}

/**
 * Runs the oracle on each selected task, each in a fresh episode on a MiniArena instance reset just
 * before it, scored by the env's evaluators (`success` of the verdict). `tti-run tasks check`.
 */
export async function checkTasks(opts: CheckTasksOptions = {}): Promise<CheckTasksResult> {
  const started = Date.now();
  const split = opts.split ?? 'all';
  const raw = selectTasks(readSplit(split, opts.dir), opts);
  const n = Math.max(1, Math.min(opts.concurrency ?? 2, raw.length || 1));
  const slots = await openSlots(n, { split, dir: opts.dir, env: { ...ORACLE_ENV, ...opts.env } });
  try {
    const episodes = await runOnSlots(slots, raw, runOracleEpisode, (e, done) =>
      opts.onEpisode?.(e, done, raw.length),
    );
    const result = summarizeEpisodes(episodes, Date.now() - started);
    if (opts.writeLengths) recordOracleLengths(result.lengths, { dir: opts.dir });
    return result;
  } finally {
    await closeSlots(slots);
  }
}
