// The supervisor's own limit. A real supervisor (`tti-run train --listen` on loopback, CURVE, the key
// gate, its real replay and learner children) serves N simulated remote env workers and one
// simulated remote inference worker, all in this process over real ZeroMQ sockets with their own
// credentials: each env worker registers with its proof, heartbeats at the run's interval, pulls an
// episode, sends `steps` act requests (a typical observation) through the supervisor's act relay
// with `stepMs` of "browser time" between them, and reports the result. We measure the round trip
// of each control message (heartbeat → ack, task request → assignment, result → ack, act through
// the relay) and the supervisor process's CPU (utime + stime from /proc) over the window.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ActRequestMessage,
  Channel,
  type CurveSocketKeys,
  Inbound,
  RejectedFrames,
  Requester,
  registerProof,
  type SocketTuning,
  type SpeakerKey,
  speakerKey,
} from '../src/protocol/index.js';
import { type Credential, issueCredential, RunDir, readSupervisorInfo } from '../src/run/index.js';
import { cliEntry, projectRoot } from '../src/util/paths.js';
import { typicalObservation } from './observation-fixture.js';

export interface SupervisorBenchOptions {
  workers: number;
  steps: number;
  stepMs: number;
  warmupMs: number;
  windowMs: number;
  port: number;
}

type Kind = 'heartbeat' | 'task' | 'result' | 'act';

const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 100) / 100;
};

function cpuMs(pid: number): number {
  // utime and stime, fields 14 and 15, in clock ticks (100 per second on Linux).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** What each message after register carries: the key it speaks with (src/protocol/speaker-proof.ts). */
function keyOf(c: Credential): SpeakerKey {
  return speakerKey({ secretKey: c.secretKey, serverPublic: c.serverPublic }, c.id, c.id);
}

function keysOf(c: Credential): CurveSocketKeys {
  return { serverPublic: c.serverPublic, clientPublic: c.publicKey, clientSecret: c.secretKey };
}

export async function supervisorBench(o: SupervisorBenchOptions) {
  const root = mkdtempSync(path.join(tmpdir(), 'tti-supbench-'));
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
    'log_level=warn',
  ];
  const started = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        cliEntry,
        'train',
        '--run-dir',
        runDir.root,
        '--detach',
        '--listen',
        listen,
        ...sets.flatMap((s) => ['--set', s]),
      ],
      { cwd: projectRoot, stdio: 'ignore' },
    );
    child.on('exit', resolve);
  });
  if (started !== 0) throw new Error(`the supervisor did not start (exit ${started}); see ${runDir.logs}`);
  const supervisorPid = readSupervisorInfo(runDir).pid;
  const endpoints = readSupervisorInfo(runDir).endpoints;
  const relayFront = endpoints.relay?.front;
  if (relayFront === undefined) throw new Error('the run has no act relay');

  const rejected = new RejectedFrames(() => undefined);
  const tuning = (c: Credential): SocketTuning => ({
    lingerMs: 0,
    heartbeatIntervalMs: 1000,
    heartbeatTimeoutMs: 5000,
    curve: keysOf(c),
  });
  const samples: Record<Kind, number[]> = { heartbeat: [], task: [], result: [], act: [] };
  let measuring = false;
  const record = (kind: Kind, startedAt: number) => {
    if (measuring) samples[kind].push(performance.now() - startedAt);
  };
  let running = true;
  const closers: (() => void)[] = [];

  // The inference worker behind the relay answers at once: the bench is about the supervisor.
  const actServer = Channel.create(
    'act',
    'routed-dealer',
    Inbound.actToInference,
    rejected,
    tuning(inference),
  );
  closers.push(() => actServer.close());
  const register = async (
    c: Credential,
    control: Requester<typeof Inbound.controlToWorker>,
    role: string,
  ) => {
    const hostname = `sim-${c.id}`;
    const reply = await control.request(
      {
        type: 'register',
        role,
        workerId: c.id,
        pid: process.pid,
        hostname,
        credential: {
          keyId: c.id,
          proof: registerProof(
            { secretKey: c.secretKey, serverPublic: c.serverPublic },
            c.id,
            role,
            hostname,
            process.pid,
          ),
        },
      },
      (m) => m.type === 'registered' || m.type === 'refused',
      30_000,
    );
    if (reply?.message.type !== 'registered')
      throw new Error(`${c.id} was not registered: ${JSON.stringify(reply?.message)}`);
    return reply.message;
  };
  const heartbeat = (c: Credential, control: Requester<typeof Inbound.controlToWorker>, intervalMs: number) =>
    (async () => {
      while (running) {
        const t = performance.now();
        const ack = await control
          .request(
            {
              type: 'heartbeat',
              workerId: c.id,
              key: keyOf(c),
              stats: { rejectedFrames: 0, busy: true, counters: {}, labels: {} },
            },
            (m) => m.type === 'heartbeat_ack',
            5000,
          )
          .catch(() => null);
        if (ack !== null) record('heartbeat', t);
        await sleep(intervalMs);
      }
    })();

  const infControl = Channel.create(
    'control',
    'dealer',
    Inbound.controlToWorker,
    rejected,
    tuning(inference),
  );
  infControl.connect(endpoints.control.replace('0.0.0.0', '127.0.0.1'));
  const infRequester = new Requester(infControl);
  closers.push(() => infRequester.close());
  const welcome = await register(inference, infRequester, 'inference');
  actServer.connect(endpoints.relay?.back ?? '');
  void actServer.serve(({ message, peer }) => {
    if (peer === null) return;
    void actServer
      .sendTo(peer, {
        type: 'act_reply',
        episodeId: message.episodeId,
        step: message.step,
        reply: 'Action: stop [x]',
        policyVersion: 0,
      })
      .catch(() => undefined);
  });
  const loops: Promise<void>[] = [heartbeat(inference, infRequester, welcome.heartbeatIntervalMs)];

  const observation = typicalObservation();
  const envLoop = async (c: Credential) => {
    const control = Channel.create('control', 'dealer', Inbound.controlToWorker, rejected, tuning(c));
    control.connect(endpoints.control);
    const controlRequester = new Requester(control);
    const taskChannel = Channel.create('tasks', 'dealer', Inbound.tasksToEnv, rejected, tuning(c));
    const tasks = new Requester(taskChannel);
    const actChannel = Channel.create('act', 'dealer', Inbound.actToEnv, rejected, tuning(c));
    closers.push(() => {
      controlRequester.close();
      tasks.close();
      act.close();
    });
    const act = new Requester(actChannel);
    const w = await register(c, controlRequester, 'env');
    taskChannel.connect(w.endpoints.tasks);
    actChannel.connect(relayFront);
    loops.push(heartbeat(c, controlRequester, w.heartbeatIntervalMs));
    let requestId = 0;
    while (running) {
      requestId += 1;
      let t = performance.now();
      const got = await tasks
        .request(
          { type: 'task_request', workerId: c.id, key: keyOf(c), requestId },
          (m) => m.requestId === requestId,
          10_000,
        )
        .catch(() => null);
      if (got === null || got.message.type !== 'task_assignment') {
        await sleep(200);
        continue;
      }
      record('task', t);
      const assignment = got.message;
      for (let step = 0; step < o.steps && running; step++) {
        await sleep(o.stepMs);
        const request: ActRequestMessage = {
          type: 'act_request',
          policy: 'tfjs',
          workerId: c.id,
          key: keyOf(c),
          episodeId: assignment.episodeId,
          step,
          horizon: assignment.horizon,
          intent: 'Find the cheapest espresso machine',
          observation,
          history: [],
          trail: [],
          greedy: false,
          temperature: 1,
          seed: step,
        };
        t = performance.now();
        const reply = await act
          .request(request, (m) => m.episodeId === assignment.episodeId && m.step === step, 10_000)
          .catch(() => null);
        if (reply !== null) record('act', t);
      }
      t = performance.now();
      const ack = await tasks
        .request(
          {
            type: 'episode_result',
            workerId: c.id,
            key: keyOf(c),
            requestId,
            episodeId: assignment.episodeId,
            taskFile: assignment.taskFile,
            taskId: assignment.taskId,
            split: assignment.split,
            iteration: assignment.iteration,
            reward: 0,
            steps: o.steps,
            answer: null,
            endReason: 'horizon',
            kept: false,
            policyVersions: [0],
            durationMs: o.steps * o.stepMs,
          },
          (m) => m.type === 'result_ack' && m.episodeId === assignment.episodeId,
          10_000,
        )
        .catch(() => null);
      if (ack !== null) record('result', t);
    }
  };
  // Join in waves, as machines coming up would; each registration is a CURVE handshake and a proof.
  for (let i = 0; i < envs.length; i += 16) {
    for (const c of envs.slice(i, i + 16))
      loops.push(
        envLoop(c).catch((error: Error) => {
          if (running) throw error;
        }),
      );
    await sleep(100);
  }
  await sleep(o.warmupMs);
  const load0 = loadavg();
  const cpu0 = cpuMs(supervisorPid);
  const wall0 = performance.now();
  measuring = true;
  await sleep(o.windowMs);
  measuring = false;
  const wallMs = performance.now() - wall0;
  const supervisorCpuMs = cpuMs(supervisorPid) - cpu0;
  const load1 = loadavg();
  running = false;
  process.kill(supervisorPid, 'SIGTERM');
  await sleep(2000);
  for (const close of closers) close();
  await Promise.race([Promise.allSettled(loops), sleep(5000)]);
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(supervisorPid, 0);
      await sleep(100);
    } catch {
      break;
    }
  }
  rmSync(root, { recursive: true, force: true });

  const seconds = wallMs / 1000;
  const summary = (kind: Kind) => ({
    count: samples[kind].length,
    perS: Math.round((samples[kind].length / seconds) * 10) / 10,
    p50Ms: percentile(samples[kind], 0.5),
    p95Ms: percentile(samples[kind], 0.95),
    p99Ms: percentile(samples[kind], 0.99),
  });
  const control = [...samples.heartbeat, ...samples.task, ...samples.result];
  const controlPerS = control.length / seconds;
  return {
    workers: o.workers,
    stepsPerEpisode: o.steps,
    stepMs: o.stepMs,
    windowS: Math.round(seconds * 10) / 10,
    heartbeatIntervalMs: welcome.heartbeatIntervalMs,
    observationBytes: JSON.stringify(observation).length,
    control: {
      perS: Math.round(controlPerS * 10) / 10,
      p50Ms: percentile(control, 0.5),
      p95Ms: percentile(control, 0.95),
      p99Ms: percentile(control, 0.99),
    },
    byKind: {
      heartbeat: summary('heartbeat'),
      task: summary('task'),
      result: summary('result'),
      actViaRelay: summary('act'),
    },
    supervisor: {
      cpuMs: supervisorCpuMs,
      /** of one core */
      cpuPercent: Math.round((supervisorCpuMs / wallMs) * 1000) / 10,
      cpuUsPerMessage: Math.round(
        (supervisorCpuMs * 1000) / Math.max(1, control.length + samples.act.length),
      ),
    },
    loadAverage: { before: load0, after: load1 },
  };
}

export type SupervisorBenchResult = Awaited<ReturnType<typeof supervisorBench>>;

export function describeSupervisorBench(r: SupervisorBenchResult): string {
  const k = r.byKind;
  return (
    `supervisor (${r.workers} simulated env workers + 1 inference, CURVE on loopback, ${r.windowS} s): ` +
    `control ${r.control.perS}/s p50 ${r.control.p50Ms} ms p95 ${r.control.p95Ms} ms; ` +
    `act via relay ${k.actViaRelay.perS}/s p95 ${k.actViaRelay.p95Ms} ms; ` +
    `supervisor CPU ${r.supervisor.cpuPercent}% of a core (${r.supervisor.cpuUsPerMessage} µs/message); ` +
    `load ${r.loadAverage.before.map((x) => x.toFixed(1)).join(' ')}\n`
  );
}
