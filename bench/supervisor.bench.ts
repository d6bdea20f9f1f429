// The supervisor's own limit. A real supervisor (`tti-run train --listen` on loopback, CURVE, the key
// gate, its real replay and learner children) serves N simulated remote env workers and one
// simulated remote inference worker over real ZeroMQ sockets with their own credentials. The
// simulated workers run in their own processes (supervisor-sim-workers.ts), so their CPU is
// measured apart from the supervisor's and cannot delay its event loop: each env worker registers
// with its proof, heartbeats at the run's interval, pulls an episode, sends `steps` act requests (a
// typical observation) through the supervisor's act relay with `stepMs` of "browser time" between
// them, and reports the result. We measure the round trip of each control message (heartbeat → ack,
// task request → assignment, result → ack, act through the relay), the CPU time of the supervisor
// process (all its threads, ZeroMQ's included), of its children and of the simulated workers, and
// the event-loop lag of the supervisor (event-loop-probe.ts) and of the simulated workers: on a
// loaded machine a round trip is mostly waiting for a core, and the lags show which side waited.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type Credential, issueCredential, RunDir, readSupervisorInfo } from '../src/run/index.js';
import { cliEntry, projectRoot } from '../src/util/paths.js';
import { typicalObservation } from './observation-fixture.js';
import type { Kind, SimCommand, SimReport, SimStart } from './supervisor-sim-workers.js';

export interface SupervisorBenchOptions {
  workers: number;
  steps: number;
  stepMs: number;
  warmupMs: number;
  windowMs: number;
  port: number;
  /** processes the simulated workers are spread over */
  processes: number;
  /** a folder: the supervisor is profiled (event-loop-probe.ts) and writes its profile there */
  cpuProfileDir?: string;
  /** another build's `bin/tti-run` to start the supervisor from (a baseline); unset: this build's */
  cli?: { entry: string; label: string };
  /**
   * The nice value of the supervisor's and the simulated workers' autogroups for the run (each is a
   * session of its own; with sched_autogroup a thread's nice counts only inside its session, and
   * sessions share the cores): a negative one lets them take a core ahead of the machine's other
   * load, for a latency of the supervisor's own work. Unset: as started.
   */
  priorityNice?: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));

const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 100) / 100;
};
const round2 = (x: { runMs: number; waitMs: number }) => ({
  runMs: Math.round(x.runMs),
  waitMs: Math.round(x.waitMs),
  waitPerRun: Math.round((x.waitMs / Math.max(1, x.runMs)) * 100) / 100,
});
const spread = (xs: number[]) => ({
  p50Ms: percentile(xs, 0.5),
  p95Ms: percentile(xs, 0.95),
  p99Ms: percentile(xs, 0.99),
});

/** utime + stime of every thread of `pid` (fields 14 and 15 of /proc/<pid>/stat), ms. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A thread's time on a core and time runnable but waiting for one (/proc/<pid>/task/<tid>/schedstat), ms. */
function schedMs(pid: number, tid = pid): { runMs: number; waitMs: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')
      .trim()
      .split(' ')
      .map(Number);
    return { runMs: (run ?? 0) / 1e6, waitMs: (wait ?? 0) / 1e6 };
  } catch {
    return { runMs: 0, waitMs: 0 };
  }
}

/** Every thread of a process, summed. */
function processSchedMs(pid: number): { runMs: number; waitMs: number } {
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {}
  return tids
    .map((t) => schedMs(pid, Number(t)))
    .reduce((a, b) => ({ runMs: a.runMs + b.runMs, waitMs: a.waitMs + b.waitMs }), { runMs: 0, waitMs: 0 });
}

/** The whole machine's busy CPU (all cores), ms, from /proc/stat. */
function machineBusyMs(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return (cpu.reduce((a, b) => a + b, 0) - idle) * 10;
}

interface ProbeLine {
  at: number;
  cpuUs: number;
  lagMs: number[];
}

function probeLines(dir: string, pid: number): ProbeLine[] {
  const file = path.join(dir, `${pid}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ProbeLine);
}

/** Sets the nice value of the autogroup (session) `pid` is in (/proc/<pid>/autogroup). */
function reniceAutogroup(pid: number, nice: number): void {
  writeFileSync(`/proc/${pid}/autogroup`, String(nice));
}

function autogroupOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim();
  } catch {
    return '?';
  }
}

function forkSim(): Promise<ChildProcess> {
  // A session of its own: an autogroup that can be given a priority apart from the bench's.
  const child = fork(path.join(here, 'supervisor-sim-workers.js'), [], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`a simulated-worker process exited with ${code}`)));
  });
}

const send = (child: ChildProcess, m: SimCommand) => child.send(m);

function nextMessage<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no '${type}' from a simulated-worker process`)),
      timeoutMs,
    );
    const on = (m: { type?: string }) => {
      if (m.type !== type) return;
      clearTimeout(timer);
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
  });
}

export async function supervisorBench(o: SupervisorBenchOptions) {
  const root = mkdtempSync(path.join(tmpdir(), 'tti-supbench-'));
  const probeDir = path.join(root, 'probe');
  mkdirSync(probeDir);
  if (o.cpuProfileDir) mkdirSync(o.cpuProfileDir, { recursive: true });
  const runDir = new RunDir(path.join(root, 'run'));
  const envs = Array.from({ length: o.workers }, () => issueCredential(runDir.root, 'env'));
  const inference = issueCredential(runDir.root, 'inference');
  const listen = `tcp://127.0.0.1:${o.port}`;
  const sets = [
    'workers.env=0',
    'workers.inference=0',
    `remote.env=${o.workers}`,
    'remote.inference=1',
    'iterations=1',
    'rollout_size=20000',
    `log_level=${process.env.TTI_BENCH_LOG_LEVEL ?? 'warn'}`,
  ];
  const nodeOptions = [
    process.env.NODE_OPTIONS ?? '',
    `--import=${path.join(here, 'event-loop-probe.js')}`,
  ].join(' ');
  const started = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        o.cli?.entry ?? cliEntry,
        'train',
        '--run-dir',
        runDir.root,
        '--detach',
        '--listen',
        listen,
        ...sets.flatMap((s) => ['--set', s]),
      ],
      {
        cwd: o.cli ? path.dirname(path.dirname(o.cli.entry)) : projectRoot,
        stdio: 'ignore',
        env: {
          ...process.env,
          NODE_OPTIONS: nodeOptions,
          TTI_BENCH_PROBE_DIR: probeDir,
          ...(o.cpuProfileDir ? { TTI_BENCH_CPU_PROF: o.cpuProfileDir } : {}),
        },
      },
    );
    child.on('exit', resolve);
  });
  if (started !== 0) throw new Error(`the supervisor did not start (exit ${started}); see ${runDir.logs}`);
  const supervisorPid = readSupervisorInfo(runDir).pid;
  const endpoints = readSupervisorInfo(runDir).endpoints;
  if (endpoints.relay === undefined) throw new Error('the run has no act relay');

  const sims = await Promise.all(Array.from({ length: o.processes }, () => forkSim()));
  const share = (i: number): Credential[] => envs.filter((_, j) => j % o.processes === i);
  const startedAll = sims.map((child) => nextMessage(child, 'started', 120_000));
  sims.forEach((child, i) => {
    const start: SimStart = {
      type: 'start',
      envs: share(i),
      inference: i === 0 ? inference : null,
      control: endpoints.control.replace('0.0.0.0', '127.0.0.1'),
      relayFront: endpoints.relay?.front ?? '',
      relayBack: endpoints.relay?.back ?? '',
      steps: o.steps,
      stepMs: o.stepMs,
    };
    send(child, start);
  });
  await Promise.all(startedAll);
  if (o.priorityNice !== undefined)
    for (const pid of [supervisorPid, ...sims.map((c) => c.pid ?? 0)]) reniceAutogroup(pid, o.priorityNice);
  const autogroups = [supervisorPid, ...sims.map((c) => c.pid ?? 0)].map(autogroupOf);
  await sleep(o.warmupMs);

  if (o.cpuProfileDir) process.kill(supervisorPid, 'SIGUSR2');
  const load0 = loadavg();
  const kids = childrenOf(supervisorPid);
  const cpu0 = cpuMs(supervisorPid);
  const kidsCpu0 = kids.reduce((a, p) => a + cpuMs(p), 0);
  const machine0 = machineBusyMs();
  const main0 = schedMs(supervisorPid);
  const threads0 = processSchedMs(supervisorPid);
  const simSched0 = sims.map((c) => schedMs(c.pid ?? 0));
  const at0 = Date.now();
  const wall0 = performance.now();
  for (const child of sims) send(child, { type: 'measure' });
  await sleep(o.windowMs);
  const reports = sims.map((child) => nextMessage<SimReport>(child, 'report', 30_000));
  for (const child of sims) send(child, { type: 'report' });
  const wallMs = performance.now() - wall0;
  const at1 = Date.now();
  const supervisorCpuMs = cpuMs(supervisorPid) - cpu0;
  const kidsCpuMs = kids.reduce((a, p) => a + cpuMs(p), 0) - kidsCpu0;
  const machineMs = machineBusyMs() - machine0;
  const main1 = schedMs(supervisorPid);
  const threads1 = processSchedMs(supervisorPid);
  const simSched1 = sims.map((c) => schedMs(c.pid ?? 0));
  const load1 = loadavg();
  const got = await Promise.all(reports);

  for (const child of sims) send(child, { type: 'stop' });
  process.kill(supervisorPid, 'SIGTERM');
  await Promise.race([Promise.all(sims.map((c) => new Promise((r) => c.once('exit', r)))), sleep(8000)]);
  for (let i = 0; i < 150; i++) {
    try {
      process.kill(supervisorPid, 0);
      await sleep(100);
    } catch {
      break;
    }
  }
  // The supervisor's probe lines inside the window (each covers the second before it).
  const probe = probeLines(probeDir, supervisorPid).filter((l) => l.at > at0 + 500 && l.at <= at1 + 500);
  const supervisorLag = probe.flatMap((l) => l.lagMs);
  if (process.env.TTI_BENCH_KEEP === undefined) rmSync(root, { recursive: true, force: true });
  else process.stdout.write(`kept ${root}\n`);

  const samples: Record<Kind, number[]> = { heartbeat: [], task: [], result: [], act: [] };
  for (const r of got) for (const k of Object.keys(samples) as Kind[]) samples[k].push(...r.samples[k]);
  const workersCpuMs = got.reduce((a, r) => a + r.cpuUs / 1000, 0);
  const workersLag = got.flatMap((r) => r.lagMs);
  const seconds = wallMs / 1000;
  const summary = (kind: Kind) => ({
    count: samples[kind].length,
    perS: Math.round((samples[kind].length / seconds) * 10) / 10,
    ...spread(samples[kind]),
  });
  const control = [...samples.heartbeat, ...samples.task, ...samples.result];
  const messages = control.length + samples.act.length;
  const pct = (ms: number) => Math.round((ms / wallMs) * 1000) / 10;
  return {
    build: o.cli?.label ?? 'this branch',
    workers: o.workers,
    simProcesses: o.processes,
    /** the autogroups (sessions) of the supervisor, then of the simulated-worker processes, with their nice */
    autogroups,
    stepsPerEpisode: o.steps,
    stepMs: o.stepMs,
    windowS: Math.round(seconds * 10) / 10,
    heartbeatIntervalMs: got[0]?.heartbeatIntervalMs ?? null,
    registered: got.reduce((a, r) => a + r.registered, 0),
    observationBytes: JSON.stringify(typicalObservation()).length,
    control: { perS: Math.round((control.length / seconds) * 10) / 10, ...spread(control) },
    byKind: {
      heartbeat: summary('heartbeat'),
      task: summary('task'),
      result: summary('result'),
      actViaRelay: summary('act'),
    },
    /** CPU time over the window, ms, and as % of one core */
    cpu: {
      supervisorMs: supervisorCpuMs,
      supervisorPercentOfCore: pct(supervisorCpuMs),
      supervisorUsPerMessage: Math.round((supervisorCpuMs * 1000) / Math.max(1, messages)),
      supervisorChildrenMs: kidsCpuMs,
      simulatedWorkersMs: Math.round(workersCpuMs),
      simulatedWorkersPercentOfCore: pct(workersCpuMs),
      simulatedWorkersUsPerMessage: Math.round((workersCpuMs * 1000) / Math.max(1, messages)),
      machineBusyMs: machineMs,
      /** the supervisor's share of all the CPU the machine spent in the window (other agents included) */
      supervisorShareOfMachine: Math.round((supervisorCpuMs / Math.max(1, machineMs)) * 1000) / 1000,
    },
    /**
     * Time on a core against time runnable but waiting for one, over the window (schedstat): the
     * supervisor's main thread (its event loop), all its threads (ZeroMQ's I/O threads too), and
     * the simulated workers' main threads. Waiting far longer than running: the latency is the
     * machine's load, not the supervisor's work.
     */
    schedule: {
      supervisorMainThread: round2({ runMs: main1.runMs - main0.runMs, waitMs: main1.waitMs - main0.waitMs }),
      supervisorAllThreads: round2({
        runMs: threads1.runMs - threads0.runMs,
        waitMs: threads1.waitMs - threads0.waitMs,
      }),
      simulatedWorkersMainThreads: round2(
        simSched1.reduce(
          (a, b, i) => ({
            runMs: a.runMs + b.runMs - (simSched0[i]?.runMs ?? 0),
            waitMs: a.waitMs + b.waitMs - (simSched0[i]?.waitMs ?? 0),
          }),
          { runMs: 0, waitMs: 0 },
        ),
      ),
    },
    /** how late a 20 ms timer fired: the wait a message had before its process could run it */
    eventLoopLag: {
      supervisor: {
        samples: supervisorLag.length,
        ...spread(supervisorLag),
        maxMs: Math.max(0, ...supervisorLag),
      },
      simulatedWorkers: { samples: workersLag.length, ...spread(workersLag) },
    },
    loadAverage: { before: load0, after: load1 },
  };
}

export type SupervisorBenchResult = Awaited<ReturnType<typeof supervisorBench>>;

export function describeSupervisorBench(r: SupervisorBenchResult): string {
  const k = r.byKind;
  return (
    `supervisor [${r.build}] (${r.workers} simulated env workers + 1 inference in ${r.simProcesses} processes, CURVE on loopback, ` +
    `${r.windowS} s, autogroup ${r.autogroups[0]}): ` +
    `control ${r.control.perS}/s p50 ${r.control.p50Ms} ms p95 ${r.control.p95Ms} ms; ` +
    `act via relay ${k.actViaRelay.perS}/s p95 ${k.actViaRelay.p95Ms} ms; ` +
    `supervisor CPU ${r.cpu.supervisorPercentOfCore}% of a core (${r.cpu.supervisorUsPerMessage} µs/message), ` +
    `simulated workers ${r.cpu.simulatedWorkersPercentOfCore}% (${r.cpu.simulatedWorkersUsPerMessage} µs/message); ` +
    `supervisor main thread ran ${r.schedule.supervisorMainThread.runMs} ms, waited for a core ${r.schedule.supervisorMainThread.waitMs} ms; ` +
    `event-loop lag p95 supervisor ${r.eventLoopLag.supervisor.p95Ms} ms, workers ${r.eventLoopLag.simulatedWorkers.p95Ms} ms; ` +
    `load ${r.loadAverage.before.map((x) => x.toFixed(1)).join(' ')}\n`
  );
}
