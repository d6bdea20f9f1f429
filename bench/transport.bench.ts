// Transport benchmark: a typical observation's round trip through our protocol and sockets against
// a bare zeromq + msgpackr loop, in the same run (rounds alternate, medians compared as ratios),
// and the time to publish 50 MB of weights from one process to another.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack, unpack } from 'msgpackr';
import * as zmq from 'zeromq';
import { encode, Inbound } from '../src/actors/protocol.js';
import { Channel, RejectedFrames, Requester } from '../src/actors/transport.js';
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

function oursClient(endpoint: string): Client {
  const observation = typicalObservation();
  const channel = Channel.create('act', 'dealer', Inbound.actToEnv, new RejectedFrames(() => undefined));
  channel.connect(endpoint);
  const requester = new Requester(channel);
  const request = (step: number) =>
    requester.request(
      {
        type: 'act_request',
        episodeId: 'bench',
        step,
        intent: 'Find the cheapest espresso machine',
        observation,
      },
      (reply) => reply.step === step,
      10000,
    );
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

function bareClient(endpoint: string): Client {
  const observation = typicalObservation();
  const dealer = new zmq.Dealer({ linger: 0 });
  dealer.connect(endpoint);
  const message = (step: number) =>
    pack({
      type: 'act_request',
      episodeId: 'bench',
      step,
      intent: 'Find the cheapest espresso machine',
      observation,
    });
  return {
    async roundTrip(step) {
      await dealer.send(message(step));
      const [reply] = await dealer.receive();
      unpack(reply!);
    },
    async pipelined(count, window) {
      // One sender and one receiver loop: the bare socket allows one pending send and one receive.
      let sent = 0;
      const sender = (async () => {
        for (; sent < Math.min(window, count); ) await dealer.send(message(sent++));
      })();
      await sender;
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

/** Wall-clock latency and throughput, and CPU time per message on both ends (robust to a busy machine). */
async function measure(client: Client, peer: ChildProcess, roundTrips: number, pipelinedCount: number) {
  for (let i = 0; i < 200; i++) await client.roundTrip(i); // warm up
  const cpu0 = cpuUs() + (await peerCpuUs(peer));
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < roundTrips; i++) await client.roundTrip(i);
  const latencyUs = Number(process.hrtime.bigint() - t0) / 1000 / roundTrips;
  const t1 = process.hrtime.bigint();
  await client.pipelined(pipelinedCount, 32);
  const throughput = pipelinedCount / (Number(process.hrtime.bigint() - t1) / 1e9);
  const cpuPerMessageUs = (cpuUs() + (await peerCpuUs(peer)) - cpu0) / (roundTrips + pipelinedCount);
  return { latencyUs, throughput, cpuPerMessageUs };
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
  // PUB/SUB drops messages until the subscription is in place: publish small ones until one lands.
  for (let v = 0; ; v++) {
    await pub.send({ type: 'weights', policyVersion: v, tensors: [] });
    const got = await Promise.race([ack.receive(), new Promise<null>((r) => setTimeout(() => r(null), 100))]);
    if (got !== null) break;
  }
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = process.hrtime.bigint();
    await pub.send({ type: 'weights', policyVersion: 1000 + r, tensors: specs }, tensors);
    const [frame] = await ack.receive();
    const { bytes } = unpack(frame!) as { bytes: number };
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (bytes !== tensors.reduce((n, t) => n + t.byteLength, 0))
      throw new Error('weights arrived incomplete');
  }
  peer.kill();
  pub.close();
  ack.close();
  return { megabytes, repeats, medianMs: median(times), maxMs: Math.max(...times), timesMs: times };
}

export async function transportBench(options: { rounds: number; roundTrips: number; pipelined: number }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-bench-'));
  try {
    const observationBytes = encode({
      type: 'act_request',
      episodeId: 'bench',
      step: 0,
      intent: 'Find the cheapest espresso machine',
      observation: typicalObservation(),
    })[0]!.byteLength;
    const oursPeer = await startPeer(['ours', `ipc://${dir}/ours.sock`]);
    const barePeer = await startPeer(['bare', `ipc://${dir}/bare.sock`]);
    const ours = oursClient(`ipc://${dir}/ours.sock`);
    const bare = bareClient(`ipc://${dir}/bare.sock`);
    const rows: {
      round: number;
      kind: string;
      latencyUs: number;
      throughput: number;
      cpuPerMessageUs: number;
    }[] = [];
    for (let round = 0; round < options.rounds; round++) {
      // Alternate which goes first so drift on a noisy machine hits both alike.
      const sides = [
        ['bare', bare, barePeer],
        ['ours', ours, oursPeer],
      ] as const;
      for (const [kind, client, peer] of round % 2 === 0 ? sides : [...sides].reverse()) {
        rows.push({ round, kind, ...(await measure(client, peer, options.roundTrips, options.pipelined)) });
      }
    }
    ours.close();
    bare.close();
    oursPeer.kill();
    barePeer.kill();
    const pick = (kind: string, key: 'latencyUs' | 'throughput' | 'cpuPerMessageUs') =>
      median(rows.filter((r) => r.kind === kind).map((r) => r[key]));
    const summary = {
      bareLatencyUs: pick('bare', 'latencyUs'),
      oursLatencyUs: pick('ours', 'latencyUs'),
      bareThroughputPerS: pick('bare', 'throughput'),
      oursThroughputPerS: pick('ours', 'throughput'),
      bareCpuPerMessageUs: pick('bare', 'cpuPerMessageUs'),
      oursCpuPerMessageUs: pick('ours', 'cpuPerMessageUs'),
    };
    const weights = await weightsPublish(dir, 50, 5);
    return {
      observation: { nodes: 300, encodedBytes: observationBytes },
      transport: 'ipc',
      ...summary,
      latencyOverhead: summary.oursLatencyUs / summary.bareLatencyUs - 1,
      throughputOverhead: summary.bareThroughputPerS / summary.oursThroughputPerS - 1,
      cpuOverhead: summary.oursCpuPerMessageUs / summary.bareCpuPerMessageUs - 1,
      rounds: rows,
      weights50MB: weights,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
