// Transport benchmark: a typical observation's round trip through our protocol and sockets against
// a bare zeromq + msgpackr loop, in the same run (rounds alternate, medians compared as ratios),
// and the time to publish 50 MB of weights from one process to another.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack, unpack } from 'msgpackr';
import * as zmq from 'zeromq';
import { type ActRequestMessage, encode, Inbound } from '../src/protocol/index.js';
import { Channel, RejectedFrames, Requester } from '../src/protocol/transport.js';
import { typicalObservation } from './observation-fixture.js';

const peerScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'transport-peer.js');

function startPeer(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(peerScript, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`peer exited with ${code}`)));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

interface Client {
  roundTrip(step: number): Promise<void>;
  /** `count` requests with `window` in flight */
  pipelined(count: number, window: number): Promise<void>;
  close(): void;
}

const INTENT = 'Find the cheapest espresso machine';

/** The request both sides send: typed, so a protocol change that the bench misses fails the build. */
function actRequest(observation: ActRequestMessage['observation'], step: number): ActRequestMessage {
  return {
    type: 'act_request',
    policy: 'tfjs',
    workerId: 'env-0',
    episodeId: 'bench',
    step,
    horizon: 30,
    intent: INTENT,
    observation,
    // a few steps into an episode, as the env sends it
    history: ['click [1003]', 'type [1042] [espresso machine]', 'scroll [down]'],
    trail: [],
    greedy: false,
    temperature: 1,
  };
}

/**
 * Ours, written as the bare loop is: our envelope, validation and Channel, one loop that sends and
 * receives (`Channel.receive`).
 */
function oursClient(endpoint: string): Client {
  const observation = typicalObservation();
  const channel = Channel.create('act', 'dealer', Inbound.actToEnv, new RejectedFrames(() => undefined));
  channel.connect(endpoint);
  const reply = async () => {
    if ((await channel.receive()) === null) throw new Error('no reply');
  };
  return {
    async roundTrip(step) {
      await channel.send(actRequest(observation, step));
      await reply();
    },
    async pipelined(count, window) {
      let sent = 0;
      for (; sent < Math.min(window, count); ) await channel.send(actRequest(observation, sent++));
      for (let received = 0; received < count; received++) {
        await reply();
        if (sent < count) await channel.send(actRequest(observation, sent++));
      }
    },
    close: () => channel.close(),
  };
}

/**
 * Ours as the env worker uses it: `Requester` (one receive loop matching replies to waiting
 * requests, each with a deadline), pipelined as concurrent requests.
 */
function requesterClient(endpoint: string): Client {
  const observation = typicalObservation();
  const channel = Channel.create('act', 'dealer', Inbound.actToEnv, new RejectedFrames(() => undefined));
  channel.connect(endpoint);
  const requester = new Requester(channel);
  const request = (step: number) =>
    requester.request(actRequest(observation, step), (reply) => reply.step === step, 10000);
  return {
    async roundTrip(step) {
      if ((await request(step)) === null) throw new Error('no reply');
    },
    async pipelined(count, window) {
      let next = 0;
      await Promise.all(
        Array.from({ length: window }, async () => {
          while (next < count) await request(next++);
        }),
      );
    },
    close: () => requester.close(),
  };
}

/**
 * The baseline: zeromq and msgpackr alone, no envelope, no validation, no wrappers.
 * `windowed` pipelines as ours does (concurrent requests, one receive loop matching replies),
 * otherwise one loop receives a reply and sends the next request.
 */
function bareClient(endpoint: string, windowed: boolean): Client {
  const observation = typicalObservation();
  const dealer = new zmq.Dealer({ linger: 0 });
  dealer.connect(endpoint);
  const message = (step: number) => pack(actRequest(observation, step));
  const waiting = new Map<number, () => void>();
  let sends: Promise<void> = Promise.resolve();
  if (windowed) {
    void (async () => {
      for (;;) {
        const [reply] = await dealer.receive();
        const { step } = unpack(reply!) as { step: number };
        waiting.get(step)?.();
        waiting.delete(step);
      }
    })().catch(() => undefined);
  }
  const windowedRequest = (step: number) =>
    new Promise<void>((resolve) => {
      waiting.set(step, resolve);
      sends = sends.then(() => dealer.send(message(step)));
    });
  return {
    async roundTrip(step) {
      if (windowed) return windowedRequest(step);
      await dealer.send(message(step));
      const [reply] = await dealer.receive();
      unpack(reply!);
    },
    async pipelined(count, window) {
      if (windowed) {
        let next = 0;
        await Promise.all(
          Array.from({ length: window }, async () => {
            while (next < count) await windowedRequest(next++);
          }),
        );
        return;
      }
      let sent = 0;
      for (; sent < Math.min(window, count); ) await dealer.send(message(sent++));
      for (let received = 0; received < count; received++) {
        const [reply] = await dealer.receive();
        unpack(reply!);
        if (sent < count) await dealer.send(message(sent++));
      }
    },
    close: () => dealer.close(),
  };
}

function peerCpuUs(peer: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    peer.once('message', (m) => resolve((m as { cpuUs: number }).cpuUs));
    peer.send('cpu');
  });
}

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

interface Side {
  kind: string;
  client: Client;
  peer: ChildProcess;
}

/** Runs `measure` on every side, round after round, alternating the order so drift hits all alike. */
async function interleaved<T>(sides: Side[], rounds: number, measure: (side: Side) => Promise<T>) {
  const results = new Map<string, T[]>(sides.map((s) => [s.kind, []]));
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse())
      results.get(side.kind)!.push(await measure(side));
  }
  return results;
}

async function weightsPublish(dir: string, megabytes: number, repeats: number) {
  const weightsEndpoint = `ipc://${dir}/weights.sock`;
  const ackEndpoint = `ipc://${dir}/ack.sock`;
  const pub = Channel.create('weights', 'pub', null, new RejectedFrames(() => undefined));
  await pub.bind(weightsEndpoint);
  const ack = new zmq.Pull({ linger: 0 });
  await ack.bind(ackEndpoint);
  const peer = await startPeer(['weights', weightsEndpoint, ackEndpoint]);
  // 50 MB as a handful of tensors, as a small policy's layers would be.
  const floats = (megabytes * 1024 * 1024) / 4;
  const sizes = [0.5, 0.25, 0.125, 0.125].map((f) => Math.floor(floats * f));
  const tensors = sizes.map((n) => Buffer.from(new Float32Array(n).fill(0.5).buffer));
  const specs = sizes.map((n, i) => ({ name: `layer${i}`, dtype: 'float32' as const, shape: [n] }));
  // One receive at a time on the ack socket (zeromq refuses a second while one is pending), and
  // acks are matched by version: a small publish acknowledged late must not end a timed one.
  let pendingAck: Promise<Buffer[]> | null = null;
  const nextAck = (timeoutMs: number) => {
    pendingAck ??= ack.receive();
    const got = pendingAck.then(([frame]) => {
      pendingAck = null;
      return unpack(frame!) as { policyVersion: number; bytes: number };
    });
    return Promise.race([got, new Promise<null>((r) => setTimeout(() => r(null), timeoutMs).unref())]);
  };
  const ackFor = async (version: number) => {
    for (;;) {
      const got = await nextAck(60000);
      if (got === null) throw new Error(`no ack for weights version ${version}`);
      if (got.policyVersion === version) return got;
    }
  };
  // PUB/SUB drops messages until the subscription is in place: publish small ones until one lands.
  for (let v = 0; ; v++) {
    await pub.send({ type: 'weights', policyVersion: v, tensors: [] });
    if ((await nextAck(100)) !== null) break;
  }
  // One full-size publish first: the first large message grows both processes' buffers.
  await pub.send({ type: 'weights', policyVersion: 999, tensors: specs }, tensors);
  await ackFor(999);
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = process.hrtime.bigint();
    await pub.send({ type: 'weights', policyVersion: 1000 + r, tensors: specs }, tensors);
    const { bytes } = await ackFor(1000 + r);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (bytes !== tensors.reduce((n, t) => n + t.byteLength, 0))
      throw new Error('weights arrived incomplete');
  }
  peer.kill();
  pub.close();
  ack.close();
  return { megabytes, repeats, medianMs: median(times), maxMs: Math.max(...times), timesMs: times };
}

export async function transportBench(options: {
  rounds: number;
  roundTrips: number;
  pipelined: number;
  window: number;
}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-bench-'));
  // The 1/5/15-minute load averages before and after: on a shared 2-core machine they say how
  // much the absolute numbers were disturbed (the ratios compare rounds that shared the load).
  const loadBefore = loadavg();
  try {
    const observationBytes = encode(actRequest(typicalObservation(), 0))[0]!.byteLength;
    const oursPeer = await startPeer(['ours', `ipc://${dir}/ours.sock`]);
    const requesterPeer = await startPeer(['ours', `ipc://${dir}/requester.sock`]);
    const barePeer = await startPeer(['bare', `ipc://${dir}/bare.sock`]);
    const ours: Side = { kind: 'ours', client: oursClient(`ipc://${dir}/ours.sock`), peer: oursPeer };
    const requester: Side = {
      kind: 'requester',
      client: requesterClient(`ipc://${dir}/requester.sock`),
      peer: requesterPeer,
    };
    const bare: Side = { kind: 'bare', client: bareClient(`ipc://${dir}/bare.sock`, false), peer: barePeer };
    const bareWindowed: Side = {
      kind: 'bareWindowed',
      client: bareClient(`ipc://${dir}/bare.sock`, true),
      peer: barePeer,
    };
    const sides = [ours, requester, bare, bareWindowed];
    for (const side of sides) for (let i = 0; i < 300; i++) await side.client.roundTrip(i);

    // Latency: sequential round trips; CPU time of both processes per round trip.
    const latency = await interleaved(
      [bare, ours, requester],
      options.rounds * 2,
      async ({ client, peer }) => {
        const cpu0 = cpuUs() + (await peerCpuUs(peer));
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < options.roundTrips; i++) await client.roundTrip(i);
        const us = Number(process.hrtime.bigint() - t0) / 1000 / options.roundTrips;
        return { us, cpuUs: (cpuUs() + (await peerCpuUs(peer)) - cpu0) / options.roundTrips };
      },
    );
    // Throughput: `window` requests in flight.
    const throughput = await interleaved(
      [bare, ours, bareWindowed, requester],
      options.rounds,
      async ({ client }) => {
        const t0 = process.hrtime.bigint();
        await client.pipelined(options.pipelined, options.window);
        return options.pipelined / (Number(process.hrtime.bigint() - t0) / 1e9);
      },
    );
    for (const side of sides) side.client.close();
    oursPeer.kill();
    requesterPeer.kill();
    barePeer.kill();

    const lat = (kind: string, key: 'us' | 'cpuUs') => median(latency.get(kind)!.map((r) => r[key]));
    const tput = (kind: string) => median(throughput.get(kind)!);
    // Also the median of per-round ratios: each round of ours against the other side's round next
    // to it in time, which cancels load that drifts over the run (a check on the medians' ratio).
    const paired = (xs: number[], ys: number[]) => median(xs.map((x, i) => x / ys[i]! - 1));
    const latencyOf = (kind: string, key: 'us' | 'cpuUs') => latency.get(kind)!.map((r) => r[key]);
    const weights = await weightsPublish(dir, 50, 7);
    return {
      observation: { nodes: 300, encodedBytes: observationBytes },
      transport: 'ipc',
      method:
        'medians over interleaved rounds in one run (paired*: median of per-round ratios); ' +
        'ours = protocol envelope + validation + Channel, one loop that sends and receives (as bare); ' +
        'requester = the same plus Requester (reply matching, deadlines), pipelined as concurrent requests; ' +
        'bare = zeromq + msgpackr only, one loop; bareWindowed = bare written with the requester pattern',
      latency: {
        roundTrips: options.roundTrips,
        rounds: options.rounds * 2,
        bareUs: lat('bare', 'us'),
        oursUs: lat('ours', 'us'),
        overhead: lat('ours', 'us') / lat('bare', 'us') - 1,
        pairedOverhead: paired(latencyOf('ours', 'us'), latencyOf('bare', 'us')),
        bareCpuUsPerRoundTrip: lat('bare', 'cpuUs'),
        oursCpuUsPerRoundTrip: lat('ours', 'cpuUs'),
        cpuOverhead: lat('ours', 'cpuUs') / lat('bare', 'cpuUs') - 1,
        pairedCpuOverhead: paired(latencyOf('ours', 'cpuUs'), latencyOf('bare', 'cpuUs')),
        requesterUs: lat('requester', 'us'),
        requesterOverhead: lat('requester', 'us') / lat('bare', 'us') - 1,
        pairedRequesterOverhead: paired(latencyOf('requester', 'us'), latencyOf('bare', 'us')),
      },
      throughput: {
        messages: options.pipelined,
        window: options.window,
        rounds: options.rounds,
        barePerS: tput('bare'),
        oursPerS: tput('ours'),
        overheadVsBare: tput('bare') / tput('ours') - 1,
        pairedOverheadVsBare: paired(throughput.get('bare')!, throughput.get('ours')!),
        bareWindowedPerS: tput('bareWindowed'),
        requesterPerS: tput('requester'),
        requesterOverheadVsBareWindowed: tput('bareWindowed') / tput('requester') - 1,
        pairedRequesterOverheadVsBareWindowed: paired(
          throughput.get('bareWindowed')!,
          throughput.get('requester')!,
        ),
        requesterOverheadVsBare: tput('bare') / tput('requester') - 1,
      },
      rounds: { latency: Object.fromEntries(latency), throughput: Object.fromEntries(throughput) },
      weights50MB: weights,
      loadAverage: { before: loadBefore, after: loadavg() },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
