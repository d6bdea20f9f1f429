// Inference benchmark: actions per second from a real inference worker (a `tti-run train` run with
// only an inference worker) to 16 concurrent env-like clients, each asking for its next action as
// soon as it has the last one, over the real act socket with a typical 300-node observation.
// Dynamic batching (max_batch 16) against none (max_batch 1), rounds alternating, medians compared.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inbound } from '../src/actors/protocol.js';
import { Channel, RejectedFrames, Requester } from '../src/actors/transport.js';
import { cliEntry, projectRoot } from '../src/paths.js';
import type { SupervisorInfo } from '../src/run/run-dir.js';
import { typicalObservation } from './observation-fixture.js';

const ENVS = 16;
const INTENT = 'What is the price of the Alderon Pro espresso machine?';

function cli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliEntry, ...args], { cwd: projectRoot });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function startInference(
  maxBatch: number,
  maxWaitMs: number,
): Promise<{ runDir: string; act: string; backend: string }> {
  const runDir = mkdtempSync(path.join(tmpdir(), 'tti-bench-inference-'));
  const sets = [
    'workers.env=0',
    'workers.replay=0',
    'workers.learner=0',
    'workers.inference=1',
    `model.max_batch=${maxBatch}`,
    `model.max_wait_ms=${maxWaitMs}`,
    'log_level=warn',
  ];
  const started = await cli(['train', '--run-dir', runDir, '--detach', ...sets.flatMap((s) => ['--set', s])]);
  if (started.code !== 0) throw new Error(`could not start the inference worker: ${started.out}`);
  const info = JSON.parse(readFileSync(path.join(runDir, 'supervisor.json'), 'utf8')) as SupervisorInfo;
  const act = Object.values(info.endpoints.act)[0];
  if (act === undefined) throw new Error('no act endpoint');
  // Ready when status shows the backend (the policy is loaded).
  for (let i = 0; i < 300; i++) {
    const status = await cli(['status', '--run-dir', runDir, '--json']);
    if (status.code === 0) {
      const s = JSON.parse(status.out) as { backend: string | null; state: string };
      if (s.backend !== null && s.state === 'running') return { runDir, act, backend: s.backend };
    }
    await sleep(200);
  }
  throw new Error('the inference worker did not come up');
}

/** 16 clients, each with one request in flight, for `seconds`; returns actions/s. */
async function measure(endpoint: string, seconds: number): Promise<number> {
  const observation = typicalObservation();
  const rejected = new RejectedFrames(() => undefined);
  const tuning = { lingerMs: 0, heartbeatIntervalMs: 1000, heartbeatTimeoutMs: 5000 };
  const clients = Array.from({ length: ENVS }, () => {
    const channel = Channel.create('act', 'dealer', Inbound.actToEnv, rejected, tuning);
    channel.connect(endpoint);
    return new Requester(channel);
  });
  // Warm-up: the first forward passes compile kernels.
  const ask = async (client: Requester<typeof Inbound.actToEnv>, episodeId: string, step: number) => {
    const reply = await client.request(
      {
        type: 'act_request',
        episodeId,
        step,
        horizon: 30,
        intent: INTENT,
        observation,
        history: [],
        greedy: false,
      },
      (m) => m.episodeId === episodeId && m.step === step,
      30000,
    );
    if (reply === null) throw new Error('no reply from inference');
  };
  await Promise.all(clients.map((c, i) => ask(c, `warm-${i}`, 0)));
  let actions = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      for (let step = 1; performance.now() < deadline; step++) {
        await ask(client, `env-${i}`, step);
        actions++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  for (const c of clients) c.close();
  return actions / elapsed;
}

async function stop(runDir: string): Promise<void> {
  await cli(['stop', '--run-dir', runDir]);
  rmSync(runDir, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface InferenceBench {
  method: string;
  concurrentEnvs: number;
  backend: string;
  batched: { maxBatch: number; maxWaitMs: number; actionsPerS: number[]; median: number };
  unbatched: { maxBatch: number; maxWaitMs: number; actionsPerS: number[]; median: number };
  speedup: number;
  floor: number;
}

export async function inferenceBench(options = { rounds: 3, seconds: 8 }): Promise<InferenceBench> {
  const batched: number[] = [];
  const unbatched: number[] = [];
  let backend = '?';
  for (let round = 0; round < options.rounds; round++) {
    // Alternate which goes first: the machine's load drifts.
    const order = round % 2 === 0 ? ([16, 1] as const) : ([1, 16] as const);
    for (const maxBatch of order) {
      const worker = await startInference(maxBatch, maxBatch === 1 ? 0 : 5);
      backend = worker.backend;
      try {
        const rate = await measure(worker.act, options.seconds);
        (maxBatch === 1 ? unbatched : batched).push(rate);
      } finally {
        await stop(worker.runDir);
      }
    }
  }
  return {
    method:
      `${ENVS} concurrent clients over the real act socket (ipc), each with one request in flight, ` +
      `against a real inference worker; ${options.rounds} rounds of ${options.seconds} s, alternating; medians`,
    concurrentEnvs: ENVS,
    backend,
    batched: { maxBatch: 16, maxWaitMs: 5, actionsPerS: batched, median: median(batched) },
    unbatched: { maxBatch: 1, maxWaitMs: 0, actionsPerS: unbatched, median: median(unbatched) },
    speedup: median(batched) / median(unbatched),
    floor: 4,
  };
}
