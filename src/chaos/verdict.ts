// What a run left behind after chaos, checked from the outside: metrics.jsonl (one row per
// iteration, none missing, none twice), state.json, and the processes still naming the run or one
// of its Chromium profiles.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processesNaming, processesOfRun, type RunDir, selfAndAncestors } from '../run/index.js';

export interface MetricsVerdict {
  rows: number;
  /** iterations 1..last without a row */
  missing: number[];
  /** iterations with more than one row */
  duplicates: number[];
  /** lines that are not JSON rows */
  unreadable: number;
  /** policy version per row, in file order */
  policyVersions: number[];
}

export function checkMetrics(runDir: RunDir): MetricsVerdict {
  const file = path.join(runDir.root, 'metrics.jsonl');
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
    : [];
  const counts = new Map<number, number>();
  const policyVersions: number[] = [];
  let unreadable = 0;
  for (const line of lines) {
    try {
      const row = JSON.parse(line) as { iteration?: unknown; policyVersion?: unknown };
      if (typeof row.iteration !== 'number') throw new Error('no iteration');
      counts.set(row.iteration, (counts.get(row.iteration) ?? 0) + 1);
      policyVersions.push(typeof row.policyVersion === 'number' ? row.policyVersion : -1);
    } catch {
      unreadable += 1;
    }
  }
  const last = Math.max(0, ...counts.keys());
  const missing: number[] = [];
  for (let i = 1; i <= last; i++) if (!counts.has(i)) missing.push(i);
  const duplicates = [...counts].filter(([, n]) => n > 1).map(([i]) => i);
  return { rows: lines.length, missing, duplicates, unreadable, policyVersions };
}

export interface SavedRunState {
  iteration: number;
  policyVersion: number;
  state: string | null;
  reason: string | null;
}

export function readRunState(runDir: RunDir): SavedRunState | null {
  try {
    const s = JSON.parse(readFileSync(runDir.state, 'utf8')) as Partial<SavedRunState>;
    return {
      iteration: typeof s.iteration === 'number' ? s.iteration : 0,
      policyVersion: typeof s.policyVersion === 'number' ? s.policyVersion : 0,
      state: typeof s.state === 'string' ? s.state : null,
      reason: typeof s.reason === 'string' ? s.reason : null,
    };
  } catch {
    return null;
  }
}

export interface Orphan {
  pid: number;
  cmdline: string;
}

/**
 * Processes still naming the run directory or a Chromium profile of the run, once the run has
 * ended, after `graceMs` for the slow to exit. This process and its ancestors do not count.
 */
export async function findOrphans(
  runDir: RunDir,
  userDataDirs: Iterable<string>,
  graceMs: number,
): Promise<Orphan[]> {
  const profiles = [...userDataDirs];
  const mine = selfAndAncestors();
  const scan = () =>
    [...processesOfRun(runDir.root), ...processesNaming(profiles)]
      .filter((p, i, all) => all.findIndex((q) => q.pid === p.pid) === i)
      .filter((p) => !mine.has(p.pid))
      .map((p) => ({ pid: p.pid, cmdline: p.cmdline.slice(0, 200) }));
  const deadline = Date.now() + graceMs;
  let left = scan();
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(200);
    left = scan();
  }
  return left;
}
