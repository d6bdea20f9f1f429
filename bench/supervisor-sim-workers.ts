// Simulated remote workers of the supervisor benchmark, in their own process so that their CPU (CURVE,
// msgpack, validation, an observation per act) is not the supervisor's and does not delay its event
// loop. The parent (supervisor.bench.ts) forks several of these; each gets a share of the env
// credentials (and one of them the inference worker's), runs them until told to stop, and sends back
// its round trips by message kind, its own CPU time and its own event-loop lag over the window.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ACT_READY_EVERY_MS,
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
import type { Credential } from '../src/run/index.js';
import { typicalObservation } from './observation-fixture.js';

export type Kind = 'heartbeat' | 'task' | 'result' | 'act';

export interface SimStart {
  type: 'start';
  envs: Credential[];
  inference: Credential | null;
  control: string;
  relayFront: string;
  relayBack: string;
  steps: number;
  stepMs: number;
}

export interface SimReport {
  type: 'report';
  samples: Record<Kind, number[]>;
  /** this process's CPU over the window, µs */
  cpuUs: number;
  /** lateness of a 20 ms timer in this process over the window, ms */
  lagMs: number[];
  heartbeatIntervalMs: number;
  registered: number;
}

/** From the parent: start, begin the window, end it (then a report comes back), stop. */
export type SimCommand = SimStart | { type: 'measure' } | { type: 'report' } | { type: 'stop' };

function keyOf(c: Credential): SpeakerKey {
  return speakerKey({ secretKey: c.secretKey, serverPublic: c.serverPublic }, c.id, c.id);
}

function keysOf(c: Credential): CurveSocketKeys {
  return { serverPublic: c.serverPublic, clientPublic: c.publicKey, clientSecret: c.secretKey };
}

const rejected = new RejectedFrames(() => undefined);
const tuning = (c: Credential): SocketTuning => ({
  lingerMs: 0,
  heartbeatIntervalMs: 1000,
  heartbeatTimeoutMs: 5000,
  curve: keysOf(c),
});
const samples: Record<Kind, number[]> = { heartbeat: [], task: [], result: [], act: [] };
const lagMs: number[] = [];
let measuring = false;
let running = true;
let cpuAtStart = 0;
let heartbeatIntervalMs = 0;
let registered = 0;
const closers: (() => void)[] = [];
const record = (kind: Kind, startedAt: number) => {
  if (measuring) samples[kind].push(performance.now() - startedAt);
};
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

// This process's own event-loop lag: a round trip here includes it, so it is reported beside them.
let expected = performance.now() + 20;
setInterval(() => {
  const now = performance.now();
  if (measuring) lagMs.push(Math.max(0, now - expected));
  expected = now + 20;
}, 20).unref();
setInterval(() => {
  if (process.ppid === 1) process.exit(0);
}, 500).unref();

async function register(c: Credential, control: Requester<typeof Inbound.controlToWorker>, role: string) {
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
    60_000,
  );
  if (reply?.message.type !== 'registered')
    throw new Error(`${c.id} was not registered: ${JSON.stringify(reply?.message)}`);
  registered += 1;
  heartbeatIntervalMs = reply.message.heartbeatIntervalMs;
  return reply.message;
}

async function heartbeat(c: Credential, control: Requester<typeof Inbound.controlToWorker>, everyMs: number) {
  // The tag is the same for every message of a worker (speaker-proof.ts): computed once, as a worker does.
  const key = keyOf(c);
  while (running) {
    const t = performance.now();
    const ack = await control
      .request(
        {
          type: 'heartbeat',
          workerId: c.id,
          key,
          stats: { rejectedFrames: 0, busy: true, counters: {}, labels: {} },
        },
        (m) => m.type === 'heartbeat_ack',
        5000,
      )
      .catch(() => null);
    if (ack !== null) record('heartbeat', t);
    await sleep(everyMs);
  }
}

/** The inference worker behind the relay answers at once: the bench is about the supervisor. */
async function inferenceLoop(c: Credential, s: SimStart) {
  const actServer = Channel.create('act', 'routed-dealer', Inbound.actToInference, rejected, tuning(c));
  const control = Channel.create('control', 'dealer', Inbound.controlToWorker, rejected, tuning(c));
  control.connect(s.control);
  const requester = new Requester(control);
  closers.push(() => {
    requester.close();
    actServer.close();
  });
  const welcome = await register(c, requester, 'inference');
  actServer.connect(s.relayBack);
  // The relay sends only to workers that announce themselves on their connection (act-relay.ts), as a
  // real remote inference worker does (act-socket.ts).
  const ready = { type: 'act_ready' as const, workerId: c.id, key: keyOf(c) };
  const announce = () => actServer.send(ready).catch(() => clearInterval(every));
  const every = setInterval(announce, ACT_READY_EVERY_MS);
  closers.push(() => clearInterval(every));
  void announce();
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
  await heartbeat(c, requester, welcome.heartbeatIntervalMs);
}

const observation = typicalObservation();

async function envLoop(c: Credential, s: SimStart) {
  const key = keyOf(c);
  const control = Channel.create('control', 'dealer', Inbound.controlToWorker, rejected, tuning(c));
  control.connect(s.control);
  const controlRequester = new Requester(control);
  const taskChannel = Channel.create('tasks', 'dealer', Inbound.tasksToEnv, rejected, tuning(c));
  const tasks = new Requester(taskChannel);
  const actChannel = Channel.create('act', 'dealer', Inbound.actToEnv, rejected, tuning(c));
  const act = new Requester(actChannel);
  closers.push(() => {
    controlRequester.close();
    tasks.close();
    act.close();
  });
  const w = await register(c, controlRequester, 'env');
  taskChannel.connect(w.endpoints.tasks);
  actChannel.connect(s.relayFront);
  const beats = heartbeat(c, controlRequester, w.heartbeatIntervalMs);
  let requestId = 0;
  while (running) {
    requestId += 1;
    let t = performance.now();
    const got = await tasks
      .request(
        { type: 'task_request', workerId: c.id, key, requestId },
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
    for (let step = 0; step < s.steps && running; step++) {
      await sleep(s.stepMs);
      const request: ActRequestMessage = {
        type: 'act_request',
        policy: 'tfjs',
        workerId: c.id,
        key,
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
          key,
          requestId,
          episodeId: assignment.episodeId,
          taskFile: assignment.taskFile,
          taskId: assignment.taskId,
          split: assignment.split,
          iteration: assignment.iteration,
          reward: 0,
          steps: s.steps,
          answer: null,
          endReason: 'horizon',
          kept: false,
          policyVersions: [0],
          durationMs: s.steps * s.stepMs,
        },
        (m) => m.type === 'result_ack' && m.episodeId === assignment.episodeId,
        10_000,
      )
      .catch(() => null);
    if (ack !== null) record('result', t);
  }
  await beats;
}

const loops: Promise<void>[] = [];
process.on('message', (m: SimCommand) => {
  if (m.type === 'start') {
    if (m.inference) loops.push(inferenceLoop(m.inference, m));
    void (async () => {
      // Join in waves, as machines coming up would; each registration is a CURVE handshake and a proof.
      for (let i = 0; i < m.envs.length; i += 8) {
        for (const c of m.envs.slice(i, i + 8))
          loops.push(
            envLoop(c, m).catch((error: Error) => {
              if (running) process.stderr.write(`${c.id}: ${error.message}\n`);
            }),
          );
        await sleep(100);
      }
      process.send?.({ type: 'started' });
    })();
  } else if (m.type === 'measure') {
    measuring = true;
    cpuAtStart = cpuNow();
  } else if (m.type === 'report') {
    measuring = false;
    const report: SimReport = {
      type: 'report',
      samples,
      cpuUs: cpuNow() - cpuAtStart,
      lagMs,
      heartbeatIntervalMs,
      registered,
    };
    process.send?.(report);
  } else if (m.type === 'stop') {
    running = false;
    for (const close of closers) close();
    void Promise.race([Promise.allSettled(loops), sleep(3000)]).then(() => process.exit(0));
  }
});
process.send?.({ type: 'ready' });
