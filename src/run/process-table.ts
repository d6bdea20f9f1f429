// The OS process table (Linux /proc), as far as a run is concerned: which processes belong to it,
// and the Chromium its env workers launched. Playwright starts Chromium in a process group of its
// own, so killing an env worker's group does not reach it; Chromium normally exits when the
// worker's debugging pipe closes, but a wedged one does not. Each env worker therefore records its
// browsers in RUN_DIR/pids/<worker>.json, and whoever outlives the worker (the supervisor, a chaos
// run) kills what is recorded there. Elsewhere than on Linux these functions find nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './run-dir.js';

export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  /** R, S, D, Z, T, ... (Z: a zombie, gone in all but name) */
  state: string;
  /** start time in clock ticks since boot: with the pid, it names one process even if the pid is reused */
  startTicks: number;
}

export function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '?';
  return {
    pid,
    state,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    startTicks: Number(fields[19]),
  };
}

/** The command line, arguments joined by spaces; null when the process is gone or a zombie. */
export function cmdlineOf(pid: number): string | null {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return cmdline === '' ? null : cmdline;
  } catch {
    return null;
  }
}

/** The arguments, as the process was started; null when it is gone or a zombie. */
export function argsOf(pid: number): string[] | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (args.at(-1) === '') args.pop();
    return args.length > 0 ? args : null;
  } catch {
    return null;
  }
}

/** True when `args` holds `flag` followed by exactly `value`. */
export function hasArg(args: readonly string[], flag: string, value: string): boolean {
  return args.some((arg, i) => arg === flag && args[i + 1] === value);
}

/** This process and its ancestors: what a scan for a run's leftovers must not count. */
export function selfAndAncestors(): Set<number> {
  const pids = new Set<number>();
  for (let pid: number | undefined = process.pid; pid !== undefined && pid > 1 && !pids.has(pid); ) {
    pids.add(pid);
    pid = procStat(pid)?.ppid;
  }
  return pids;
}

export function livePids(): number[] {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export interface ProcessEntry {
  pid: number;
  cmdline: string;
}

/** Live processes (not zombies) whose arguments satisfy `test`. */
export function processesWhere(test: (args: readonly string[]) => boolean): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  for (const pid of livePids()) {
    const args = argsOf(pid);
    if (args !== null && test(args)) found.push({ pid, cmdline: args.join(' ') });
  }
  return found;
}

/**
 * The live `worker` process of a run with this id (spawned by the supervisor with this pid, when
 * given), or null. Status names no pids (a pid is no proof of anything, and a map of them helps
 * only whoever would pose as a worker): tools on the run's own machine find them here.
 */
export function workerPid(runDir: string, workerId: string, supervisorPid?: number): number | null {
  const found = processesWhere(
    (args) =>
      args.includes('worker') &&
      hasArg(args, '--id', workerId) &&
      hasArg(args, '--run-dir', runDir) &&
      (supervisorPid === undefined || hasArg(args, '--parent-pid', String(supervisorPid))),
  );
  return found[0]?.pid ?? null;
}

/** Live processes (not zombies) whose command line contains any of the fragments. */
export function processesNaming(fragments: readonly string[]): ProcessEntry[] {
  if (fragments.length === 0) return [];
  return processesWhere((args) => {
    const cmdline = args.join(' ');
    return fragments.some((f) => cmdline.includes(f));
  });
}

/** Processes of a run: an argument that is the run directory or a path inside it. */
export function processesOfRun(root: string): ProcessEntry[] {
  return processesWhere((args) => args.some((a) => a === root || a.includes(`${root}/`)));
}

const RecordedBrowser = z.object({
  pid: z.number().int().positive(),
  startTicks: z.number(),
  /** Playwright's temporary profile: every Chromium process of this browser names it */
  userDataDir: z.string().nullable(),
});
export type RecordedBrowser = z.infer<typeof RecordedBrowser>;
const PidFile = z.object({ workerPid: z.number().int(), browsers: z.array(RecordedBrowser) });

const pidFile = (runDir: string, workerId: string) => path.join(runDir, 'pids', `${workerId}.json`);

/** Chromium processes this process launched (children started with Playwright's debugging pipe). */
export function ownBrowsers(): RecordedBrowser[] {
  const browsers: RecordedBrowser[] = [];
  for (const pid of livePids()) {
    const stat = procStat(pid);
    if (stat === null || stat.ppid !== process.pid || stat.state === 'Z') continue;
    const cmdline = cmdlineOf(pid);
    if (cmdline === null || !cmdline.includes('--remote-debugging-pipe')) continue;
    const userDataDir = /--user-data-dir=(\S+)/.exec(cmdline)?.[1] ?? null;
    browsers.push({ pid, startTicks: stat.startTicks, userDataDir });
  }
  return browsers;
}

/** Writes this worker's browsers to RUN_DIR/pids/<worker>.json; returns what it recorded. */
export function recordBrowsers(
  runDir: string,
  workerId: string,
  browsers: RecordedBrowser[] = ownBrowsers(),
): RecordedBrowser[] {
  mkdirSync(path.join(runDir, 'pids'), { recursive: true, mode: 0o700 });
  writeFileAtomic(
    pidFile(runDir, workerId),
    `${JSON.stringify({ workerPid: process.pid, browsers }, null, 2)}\n`,
  );
  return browsers;
}

/** The browsers a worker recorded (an unreadable file counts as none). */
export function recordedBrowsers(runDir: string, workerId: string): RecordedBrowser[] {
  try {
    const parsed = PidFile.safeParse(JSON.parse(readFileSync(pidFile(runDir, workerId), 'utf8')));
    return parsed.success ? parsed.data.browsers : [];
  } catch {
    return [];
  }
}

/** Every user-data dir recorded in the run (what a scan for leftover Chromium looks for). */
export function recordedUserDataDirs(runDir: string): string[] {
  const dir = path.join(runDir, 'pids');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => recordedBrowsers(runDir, name.slice(0, -'.json'.length)))
    .flatMap((b) => (b.userDataDir === null ? [] : [b.userDataDir]));
}

function kill(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills what a (dead) worker recorded: each browser still alive under the same start time, with its
 * process group, and any process left naming its profile. Returns the pids killed; the record goes.
 */
export function reapBrowsers(runDir: string, workerId: string): number[] {
  const killed: number[] = [];
  for (const browser of recordedBrowsers(runDir, workerId)) {
    const stat = procStat(browser.pid);
    if (stat !== null && stat.startTicks === browser.startTicks && stat.state !== 'Z') {
      // Chromium leads its own group (Playwright spawns it detached): zygotes and renderers go with it.
      if (stat.pgid === browser.pid) kill(-browser.pid);
      if (kill(browser.pid)) killed.push(browser.pid);
    }
    if (browser.userDataDir !== null) {
      for (const p of processesNaming([browser.userDataDir])) if (kill(p.pid)) killed.push(p.pid);
    }
  }
  rmSync(pidFile(runDir, workerId), { force: true });
  return [...new Set(killed)];
}
