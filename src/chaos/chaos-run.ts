// `tti-run chaos`: kill random workers of a run with SIGKILL every few seconds (and, once, the
// supervisor itself, followed by `train --resume`; once, every worker of one host: host-cut.ts),
// let the run finish, then check from the outside that nothing was lost: every success replay held
// durable during the run is still in its log, metrics.jsonl has each iteration once, and no
// process of the run is left.
//
// Replay acknowledges a trajectory only once it is fsynced in its log, so the episode ids seen in
// the log while the run ran (read without touching it, before every kill and every poll) include
// every acknowledged success: those must all be in the log at the end.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../config/index.js';
import type { Role, StatusSnapshot, WorkerSnapshot } from '../protocol/index.js';
import { ReplayLogReader, readReplayLog } from '../replay/index.js';
import { RunDir, recordedUserDataDirs } from '../run/index.js';
import { SeededRandom } from '../util/index.js';
import { planHostCut } from './host-cut.js';
import { RunHandle } from './run-handle.js';
import { checkMetrics, findOrphans, type MetricsVerdict, type Orphan, readRunState } from './verdict.js';

export interface ChaosOptions {
  runDir: string;
  /** `tti-run train` arguments for a new run (--config, --preset, --set …); unused when attaching */
  trainArgs: readonly string[];
  killEveryMs: number;
  /** how long workers are killed; then the run is left to finish */
  durationMs: number;
  /** when (after the start) to kill the supervisor once and resume the run; null: never */
  supervisorAtMs: number | null;
  roles: readonly Role[];
  /** stop every worker of this host (its hostname in status) at once, `atMs` into the window */
  cutHost: { host: string; atMs: number } | null;
  seed: number;
  /** after the chaos window, how long the run may take to finish before it is stopped */
  settleMs: number;
  say: (line: string) => void;
}

export interface Kill {
  atMs: number;
  worker: string;
  role: Role;
  pid: number;
  iteration: number;
}

export interface ChaosSummary {
  runDir: string;
  durationMs: number;
  killEveryMs: number;
  kills: { total: number; byRole: Partial<Record<Role, number>>; skipped: number; list: Kill[] };
  supervisor: { kills: number; resumes: number; downMs: number[] };
  /** --cut-host: the workers SIGKILLed and those hung through the supervisor (remote; their
   * machine's manager must restart them); null when no cut was asked or the run ended before it */
  cut: { host: string; atMs: number; killed: string[]; hung: string[]; hosts: string[] } | null;
  /** worker restarts the supervisors reported (summed over supervisor lifetimes) */
  restarts: number;
  iterations: {
    atStart: number;
    completed: number;
    target: number;
    metrics: Omit<MetricsVerdict, 'policyVersions'>;
  };
  policyVersion: number;
  run: { state: string | null; reason: string | null; completed: boolean; stoppedByChaos: boolean };
  replay: {
    /** kept trajectories in replay's log when chaos began */
    atStart: number;
    /** successes seen durable (hence acknowledgeable) in replay's log while the run ran */
    acknowledged: number;
    /** of those, still in the log at the end */
    foundAfter: number;
    lost: string[];
    /** kept trajectories in the log at the end */
    atEnd: number;
  };
  orphans: Orphan[];
  ok: boolean;
}

const START_TIMEOUT_MS = 180_000;
const POLL_MS = 250;
const ORPHAN_GRACE_MS = 10_000;

export async function runChaos(options: ChaosOptions): Promise<ChaosSummary> {
  const runDir = new RunDir(options.runDir);
  const handle = new RunHandle(runDir);
  const random = new SeededRandom(options.seed);
  const say = options.say;
  const began = Date.now();
  const elapsed = () => Date.now() - began;

  // Replay's log and the run's Chromium profiles, followed as the run goes.
  const replayReader = ReplayLogReader.inDir(path.join(runDir.root, 'replay'));
  const acknowledged = new Set<string>();
  const profiles = new Set<string>();
  const observe = (): void => {
    for (const t of replayReader.poll().trajectories) acknowledged.add(t.episodeId);
    for (const dir of recordedUserDataDirs(runDir.root)) profiles.add(dir);
  };
  observe();
  const atStartKept = acknowledged.size;
  const atStartIteration = readRunState(runDir)?.iteration ?? 0;

  // 1. the run: attach to a live one, or start (or resume) it
  if (handle.supervisor() === null) {
    const resume = existsSync(runDir.state);
    say(`chaos: ${resume ? 'resuming' : 'starting'} the run in ${runDir.root}`);
    await handle.start(options.trainArgs, resume);
  } else {
    say(`chaos: attaching to the run in ${runDir.root}`);
  }
  let status: StatusSnapshot | null = await handle.waitRunning(START_TIMEOUT_MS);
  const config = loadConfig(runDir.config);
  const { max_restarts: maxRestarts, restart_window_s: windowS } = config.supervisor;
  // Chaos stays under the run's restart intensity (it tests survival, not the intensity cap), with
  // room for restarts it did not cause.
  const killBudget = Math.max(1, maxRestarts - 2);

  const kills: Kill[] = [];
  let skipped = 0;
  /** when the last resume came up: kills before it counted against the previous supervisor */
  let lastResumeAt = 0;
  const supervisorDown: number[] = [];
  let supervisorKills = 0;
  const restartsBySupervisor = new Map<number, number>();
  const note = (s: StatusSnapshot | null): void => {
    const supervisorPid = handle.supervisor()?.pid;
    if (s !== null && supervisorPid !== undefined)
      restartsBySupervisor.set(
        supervisorPid,
        s.workers.reduce((n, w) => n + w.restarts, 0),
      );
  };
  note(status);

  const victim = (s: StatusSnapshot): { worker: WorkerSnapshot; pid: number } | null => {
    const now = Date.now();
    const eligible = s.workers.flatMap((w) => {
      if (w.remote === true || w.state !== 'ready' || !options.roles.includes(w.role)) return [];
      const recent = kills.filter(
        (k) => k.worker === w.id && now - (began + k.atMs) < windowS * 1000 && k.atMs >= lastResumeAt,
      );
      const pid = recent.length < killBudget ? handle.workerPid(w.id) : null;
      return pid === null ? [] : [{ worker: w, pid }];
    });
    if (eligible.length === 0) return null;
    return eligible[Math.floor(random.next() * eligible.length)] ?? null;
  };

  const killSupervisorAndResume = async (): Promise<void> => {
    const info = handle.supervisor();
    if (info === null) return;
    observe();
    say(`chaos: kill -9 the supervisor (pid ${info.pid}) at ${elapsed()} ms`);
    process.kill(info.pid, 'SIGKILL');
    supervisorKills += 1;
    const down = Date.now();
    await handle.waitGone(info.pid, 10_000);
    // Its workers exit by themselves once they notice; `train --resume` waits for them.
    await handle.start([], true);
    status = await handle.waitRunning(START_TIMEOUT_MS);
    supervisorDown.push(Date.now() - down);
    lastResumeAt = elapsed();
    say(`chaos: resumed (supervisor pid ${handle.supervisor()?.pid ?? '?'}) after ${Date.now() - down} ms`);
  };

  let cut: ChaosSummary['cut'] = null;
  const cutHost = async (s: StatusSnapshot, host: string): Promise<void> => {
    observe();
    const plan = planHostCut(s, host);
    const killed: string[] = [];
    for (const w of plan.kill) {
      const pid = handle.workerPid(w.id);
      if (pid === null) continue;
      process.kill(pid, 'SIGKILL');
      killed.push(w.id);
      kills.push({ atMs: elapsed(), worker: w.id, role: w.role, pid, iteration: s.iteration });
    }
    const hung: string[] = [];
    for (const w of plan.hang) {
      say(`chaos: ${await handle.inject(w.id, 'hang')}`);
      hung.push(w.id);
    }
    cut = { host, atMs: elapsed(), killed, hung, hosts: plan.hosts };
    say(
      killed.length + hung.length === 0
        ? `chaos: no worker on host ${host} to cut (hosts: ${plan.hosts.join(', ') || 'none'})`
        : `chaos: cut host ${host} at ${elapsed()} ms: SIGKILL ${killed.join(', ') || 'none'}; hang ${hung.join(', ') || 'none'}`,
    );
  };

  // 2. the chaos window, from the moment the run is up
  const windowStart = elapsed();
  const inWindow = () => elapsed() - windowStart;
  let nextKillAt = options.killEveryMs;
  let supervisorDone = options.supervisorAtMs === null;
  while (inWindow() < options.durationMs) {
    if (handle.supervisor() === null) {
      // The run ended (or failed) on its own: what was planned after this point never happened.
      say(
        `chaos: the run ended ${inWindow()} ms into the ${options.durationMs} ms window` +
          (supervisorDone ? '' : ', before the supervisor kill') +
          '; a longer run (more iterations or episodes) exercises the whole window',
      );
      break;
    }
    status = await handle.status();
    note(status);
    observe();
    if (!supervisorDone && options.supervisorAtMs !== null && inWindow() >= options.supervisorAtMs) {
      supervisorDone = true;
      await killSupervisorAndResume();
      nextKillAt = inWindow() + options.killEveryMs;
      continue;
    }
    if (cut === null && options.cutHost !== null && inWindow() >= options.cutHost.atMs && status !== null) {
      await cutHost(status, options.cutHost.host);
      continue;
    }
    if (inWindow() >= nextKillAt && status?.state === 'running') {
      // Paced from this kill, not the schedule: a slow poll must not turn into a burst of kills.
      nextKillAt = inWindow() + options.killEveryMs;
      const target = victim(status);
      if (target === null) {
        skipped += 1;
      } else {
        const { worker, pid } = target;
        process.kill(pid, 'SIGKILL');
        kills.push({
          atMs: elapsed(),
          worker: worker.id,
          role: worker.role,
          pid,
          iteration: status.iteration,
        });
        say(`chaos: SIGKILL ${worker.id} (pid ${pid}) at ${elapsed()} ms, iteration ${status.iteration}`);
      }
    }
    await sleep(POLL_MS);
  }

  // 3. the run finishes on its own (or is stopped once the settle time is over)
  say(`chaos: ${kills.length} kills in ${elapsed()} ms; waiting for the run to finish`);
  const settleUntil = Date.now() + options.settleMs;
  while (handle.supervisor() !== null && Date.now() < settleUntil) {
    note(await handle.status());
    observe();
    await sleep(500);
  }
  let stoppedByChaos = false;
  if (handle.supervisor() !== null) {
    say('chaos: the run did not finish in the settle time; stopping it');
    stoppedByChaos = true;
    await handle.stop(config.supervisor.shutdown_timeout_ms + 30_000);
  }
  handle.close();
  observe();

  // 4. the verdict
  const orphans = await findOrphans(runDir, profiles, ORPHAN_GRACE_MS);
  const after = new Set(readReplayLog(path.join(runDir.root, 'replay')).map((t) => t.episodeId));
  const lost = [...acknowledged].filter((id) => !after.has(id));
  const { policyVersions, ...metrics } = checkMetrics(runDir);
  const saved = readRunState(runDir);
  const completed = saved !== null && saved.iteration >= config.iterations;
  const byRole: Partial<Record<Role, number>> = {};
  for (const k of kills) byRole[k.role] = (byRole[k.role] ?? 0) + 1;
  const summary: ChaosSummary = {
    runDir: runDir.root,
    durationMs: elapsed(),
    killEveryMs: options.killEveryMs,
    kills: { total: kills.length, byRole, skipped, list: kills },
    supervisor: { kills: supervisorKills, resumes: supervisorDown.length, downMs: supervisorDown },
    cut,
    restarts: [...restartsBySupervisor.values()].reduce((a, b) => a + b, 0),
    iterations: {
      atStart: atStartIteration,
      completed: saved?.iteration ?? 0,
      target: config.iterations,
      metrics,
    },
    policyVersion: saved?.policyVersion ?? policyVersions.at(-1) ?? 0,
    run: { state: saved?.state ?? null, reason: saved?.reason ?? null, completed, stoppedByChaos },
    replay: {
      atStart: atStartKept,
      acknowledged: acknowledged.size,
      foundAfter: acknowledged.size - lost.length,
      lost,
      atEnd: after.size,
    },
    orphans,
    ok:
      completed &&
      lost.length === 0 &&
      orphans.length === 0 &&
      metrics.missing.length === 0 &&
      metrics.duplicates.length === 0,
  };
  return summary;
}
