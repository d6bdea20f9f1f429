import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BrowserEnv, type BrowserEnvConfig, loadTaskFile, type Task } from '../../envs/index.js';
import { TASKS_DIR } from '../generate-tasks.js';
import { type MiniArenaHost, startMiniArenaHost, WEBARENA_SITES, type WebArenaSite } from '../host.js';
import type { MiniArenaTask } from '../templates/types.js';

export type Split = 'train' | 'test' | 'all';

/** The task files of a split, as written (with the `miniarena` field the loader does not keep). */
export function readSplit(split: Split, dir = TASKS_DIR): MiniArenaTask[] {
  const files = split === 'all' ? ['train', 'test'] : [split];
  return files.flatMap(
    (f) => JSON.parse(readFileSync(path.join(dir, `${f}.json`), 'utf8')) as MiniArenaTask[],
  );
}

/**
 * Which tasks to run: all of them in file order; with `limit`, templates take turns (one task of
 * each, then the next of each, …) so a small limit still covers every template; with
 * `perTemplate`, the first k of each template; with `unmeasured`, only tasks without a measured
 * oracle length (what a template change left to measure).
 */
export function selectTasks(
  all: readonly MiniArenaTask[],
  opts: { limit?: number; perTemplate?: number; templates?: readonly string[]; unmeasured?: boolean } = {},
): MiniArenaTask[] {
  let tasks = opts.templates ? all.filter((t) => opts.templates!.includes(t.miniarena.template)) : [...all];
  if (opts.unmeasured) tasks = tasks.filter((t) => t.miniarena.oracle_steps === null);
  if (opts.perTemplate !== undefined) {
    const seen = new Map<string, number>();
    tasks = tasks.filter((t) => {
      const k = seen.get(t.miniarena.template) ?? 0;
      seen.set(t.miniarena.template, k + 1);
      return k < opts.perTemplate!;
    });
  }
  if (opts.limit === undefined || opts.limit >= tasks.length) return tasks;
  const byTemplate = new Map<string, MiniArenaTask[]>();
  for (const t of tasks)
    byTemplate.set(t.miniarena.template, [...(byTemplate.get(t.miniarena.template) ?? []), t]);
  const queues = [...byTemplate.values()];
  const out: MiniArenaTask[] = [];
  for (let round = 0; out.length < opts.limit; round++)
    for (const q of queues) if (q[round] && out.length < opts.limit) out.push(q[round]!);
  return out;
}

/** One MiniArena instance, one browser env, and the split's tasks resolved against that instance. */
export interface ArenaSlot {
  index: number;
  host: MiniArenaHost;
  env: BrowserEnv;
  /** task_id → task with the host's URLs and storage-state files. */
  tasks: Map<string, Task>;
  authDir: string;
  /**
   * The host is as seeded: nothing since its last reset (or start) sent a request that may change
   * a site, so the next task needs no reset (what the oracle's recording skips).
   */
  pristine: boolean;
}

export interface SlotOptions {
  split: Split;
  dir?: string;
  seed?: number;
  env?: BrowserEnvConfig;
  /** tasks beyond the task files (moreTrainTasks), resolved against the instance the same way */
  more?: readonly MiniArenaTask[];
}

async function openSlot(index: number, opts: SlotOptions): Promise<ArenaSlot> {
  const host = await startMiniArenaHost({ seed: opts.seed });
  const authDir = mkdtempSync(path.join(tmpdir(), 'tti-miniarena-'));
  // what a task's storage_state "./.auth/<site>_state.json" stands for: the default account signed in
  const auth = path.join(authDir, '.auth');
  mkdirSync(auth);
  for (const site of Object.keys(WEBARENA_SITES) as WebArenaSite[])
    writeFileSync(path.join(auth, `${site}_state.json`), JSON.stringify(host.storageState([site])));
  const tasks = new Map<string, Task>();
  const files = opts.split === 'all' ? ['train', 'test'] : [opts.split];
  for (const f of files)
    for (const t of loadTaskFile(path.join(opts.dir ?? TASKS_DIR, `${f}.json`), {
      hosts: host.placeholders,
      authDir,
    }))
      tasks.set(t.id, t);
  if (opts.more && opts.more.length > 0) {
    const file = path.join(authDir, 'more-tasks.json');
    writeFileSync(file, JSON.stringify(opts.more));
    for (const t of loadTaskFile(file, { hosts: host.placeholders, authDir })) tasks.set(t.id, t);
  }
  const env = await BrowserEnv.launch({ allowedOrigins: [host.origin], ...opts.env });
  return { index, host, env, tasks, authDir, pristine: true };
}

export async function openSlots(n: number, opts: SlotOptions): Promise<ArenaSlot[]> {
  const out: ArenaSlot[] = [];
  try {
    for (let i = 0; i < n; i++) out.push(await openSlot(i, opts));
  } catch (e) {
    await closeSlots(out);
    throw e;
  }
  return out;
}

export async function closeSlots(slots: readonly ArenaSlot[]): Promise<void> {
  await Promise.all(
    slots.map(async (s) => {
      await s.env.close().catch(() => {});
      await s.host.close().catch(() => {});
      rmSync(s.authDir, { recursive: true, force: true });
    }),
  );
}

/** Runs `fn` over the items, one at a time per slot, all slots at once; results in item order. */
export async function runOnSlots<T, R>(
  slots: readonly ArenaSlot[],
  items: readonly T[],
  fn: (slot: ArenaSlot, item: T) => Promise<R>,
  onResult?: (r: R, done: number) => void,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let done = 0;
  await Promise.all(
    slots.map(async (slot) => {
      for (let i = next++; i < items.length; i = next++) {
        out[i] = await fn(slot, items[i]!);
        done += 1;
        onResult?.(out[i]!, done);
      }
    }),
  );
  return out;
}
