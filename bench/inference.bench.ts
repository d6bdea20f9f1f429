// Inference benchmark: actions per second from a real inference worker (a `tti-run train` run with
// only an inference worker) to 16 concurrent env-like clients, each asking for its next action as
// soon as it has the last one, over the real act socket with a typical 300-node observation.
// Dynamic batching (max_batch 16) against none (max_batch 1): the same worker code, the same
// clients; rounds alternating, medians compared. Every request carries a page the worker has not
// seen (its content names are new; the header's are not), so the featurizer's string memos hit
// only what a next page of the same site would repeat. Besides wall-clock rates (which the shared
// machine's load moves), the worker's and the clients' CPU time per action are recorded: the
// ratio of the worker's CPU per action is the speedup a machine with a free core per process
// would see, and the clients' share shows whether they, not the worker, set the pace.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { featuresOf, type ModelInputRef, packModelInput } from '../src/model/without-tfjs.js';
import { Inbound } from '../src/protocol/index.js';
import { Channel, RejectedFrames, Requester } from '../src/protocol/transport.js';
import type { SupervisorInfo } from '../src/run/run-dir.js';
import { cliEntry, projectRoot } from '../src/util/paths.js';
import { type ModelCosts, modelCosts } from './inference-costs.js';
import { type PageSource, pageSource, toPolicyInput } from './inference-pages.js';

const ENVS = 16;
/** the pages each client cycles through (featurized up front when it sends features) */
const PAGES_PER_CLIENT = 40;

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

interface Worker {
  runDir: string;
  act: string;
  backend: string;
  /** the inference worker's process id (for its CPU time) */
  pid: number;
}

interface StatusJson {
  backend: string | null;
  state: string;
  workers: { role: string; pid: number | null; counters: Record<string, number> }[];
}

async function status(runDir: string): Promise<StatusJson | null> {
  const out = await cli(['status', '--run-dir', runDir, '--json']);
  return out.code === 0 ? (JSON.parse(out.out) as StatusJson) : null;
}

async function startInference(maxBatch: number, maxWaitMs: number): Promise<Worker> {
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
    const s = await status(runDir);
    const pid = s?.workers.find((w) => w.role === 'inference')?.pid ?? null;
    if (s && s.backend !== null && s.state === 'running' && pid !== null)
      return { runDir, act, backend: s.backend, pid };
    await sleep(200);
  }
  throw new Error('the inference worker did not come up');
}

/** CPU seconds (user + system) a process has used, from /proc (Linux; null elsewhere). */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

interface Measured {
  actionsPerS: number;
  /** the inference worker's CPU time per action, ms */
  workerCpuMs: number | null;
  /** the 16 clients' CPU time per action (their process), ms */
  clientCpuMs: number;
  /** an env worker's CPU ms to featurize one page (features.ts), when the clients send features */
  featurizeMsPerPage: number | null;
  /** each timed action's wait, request sent to reply received, ms: what an env waits per step */
  p50Ms: number;
  p95Ms: number;
}

const percentile = (xs: number[], q: number) =>
  xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/**
 * 16 clients, each with one request in flight, for `seconds`. With `stepMs`, a client takes about
 * that long (uniformly 0.5–1.5×, so the 16 do not fall into step) between a reply and its next
 * request, as an env worker does while the browser acts on the page and observes it.
 */
async function measure(
  worker: Worker,
  seconds: number,
  pages: PageSource,
  featurize: Featurize,
  stepMs = 0,
): Promise<Measured> {
  const endpoint = worker.act;
  const rejected = new RejectedFrames(() => undefined);
  const tuning = { lingerMs: 0, heartbeatIntervalMs: 1000, heartbeatTimeoutMs: 5000 };
  const clients = Array.from({ length: ENVS }, () => {
    const channel = Channel.create('act', 'dealer', Inbound.actToEnv, rejected, tuning);
    channel.connect(endpoint);
    return new Requester(channel);
  });
  // Each env worker featurizes its own page in its own process before it asks (model.featurize:
  // env). Here the 16 clients share one process, which featurizing would make the bottleneck (a
  // reply waits while the process featurizes the others' pages): their pages are featurized up
  // front, and the cost per page is reported apart (featurizeMsPerPage).
  const featured: { modelInput: ModelInputRef; frames: Buffer[] }[][] = [];
  let featurizeMs = 0;
  if (featurize === 'env') {
    const t0 = process.cpuUsage();
    for (let i = 0; i < ENVS; i++)
      featured.push(
        Array.from({ length: PAGES_PER_CLIENT }, (_, k) => {
          const frames: Buffer[] = [];
          const modelInput = packModelInput(featuresOf(toPolicyInput(pages.ask(i, k))), frames);
          return { modelInput, frames };
        }),
      );
    const used = process.cpuUsage(t0);
    featurizeMs = (used.user + used.system) / 1000 / (ENVS * PAGES_PER_CLIENT);
  }
  // Warm-up: the first forward passes compile kernels.
  let asked = 0;
  const waits: number[] = [];
  const ask = async (client: Requester<typeof Inbound.actToEnv>, i: number, k: number) => {
    // Made before the request like an env worker's observation, and counted in the clients' CPU.
    const a = pages.ask(i, k % PAGES_PER_CLIENT);
    const episodeId = `env-${i}-${k}-${asked++}`;
    const page = featurize === 'env' ? featured[i]![k % PAGES_PER_CLIENT]! : null;
    const sent = performance.now();
    const reply = await client.request(
      {
        type: 'act_request',
        policy: 'tfjs',
        workerId: `env-${i}`,
        episodeId,
        ...a,
        trail: [],
        ...(page ? { modelInput: page.modelInput } : {}),
        greedy: false,
        temperature: 1,
      },
      (m) => m.episodeId === episodeId && m.step === a.step,
      30000,
      page?.frames ?? [],
    );
    if (reply === null) throw new Error('no reply from inference');
    if (k > 0) waits.push(performance.now() - sent);
  };
  await Promise.all(clients.map((c, i) => ask(c, i, 0)));
  let actions = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const workerCpu0 = cpuSecondsOf(worker.pid);
  const clientCpu0 = process.cpuUsage();
  await Promise.all(
    clients.map(async (client, i) => {
      for (let k = 1; performance.now() < deadline; k++) {
        await ask(client, i, k);
        actions++;
        if (stepMs > 0) await sleep(stepMs * (0.5 + Math.random()));
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const clientCpu = process.cpuUsage(clientCpu0);
  const workerCpu1 = cpuSecondsOf(worker.pid);
  for (const c of clients) c.close();
  return {
    actionsPerS: actions / elapsed,
    workerCpuMs:
      workerCpu0 === null || workerCpu1 === null ? null : ((workerCpu1 - workerCpu0) * 1000) / actions,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / actions,
    featurizeMsPerPage: featurize === 'env' ? featurizeMs : null,
    p50Ms: percentile(waits, 0.5),
    p95Ms: percentile(waits, 0.95),
  };
}

async function stop(runDir: string): Promise<void> {
  await cli(['stop', '--run-dir', runDir]);
  rmSync(runDir, { recursive: true, force: true });
}

/** One env step's wall time on this machine, from the env bench's last results (else 120 ms). */
function envStepMs(): number {
  try {
    const env = JSON.parse(readFileSync(path.join(projectRoot, 'bench', 'results', 'env.json'), 'utf8')) as {
      ours?: { msPerStep?: number };
    };
    return env.ours?.msPerStep ?? 120;
  } catch {
    return 120;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Where pages are featurized: by the clients (as env workers do by default) or by the worker. */
type Featurize = 'env' | 'inference';

interface Arm {
  featurize: Featurize;
  /** a client's mean time between a reply and its next request (0: at once) */
  envStepMs: number;
  maxBatch: number;
  maxWaitMs: number;
  actionsPerS: number[];
  median: number;
  /** the worker's CPU ms per action, per round and median */
  workerCpuMsPerAction: number[];
  workerCpuMsMedian: number | null;
  clientCpuMsPerAction: number[];
  /** per round, when the clients send features: CPU ms an env worker spends featurizing a page */
  featurizeMsPerPage: number[];
  /** mean requests per forward pass the worker reported (its `meanBatch` counter), per round */
  meanBatch: number[];
  /** 1-minute load average at the start of each round */
  loadavg: number[];
  /** per round: an action's wait at the median and the 95th percentile, ms */
  p50Ms: number[];
  p95Ms: number[];
  /** median over rounds of the p95 (issue 22's ceiling: 50 ms with 16 envs) */
  p95MsMedian: number;
}

export interface InferenceBench {
  method: string;
  /** what the clients send: recorded MiniArena steps, or synthetic pages (inference-pages.ts) */
  pages: PageSource['kind'];
  concurrentEnvs: number;
  backend: string;
  /** the clients send features (model.featurize: env, the default), each asking again at once: saturation */
  batched: Arm;
  /**
   * the same, each client taking an env step's time between a reply and its next request (the
   * env bench's measured ms per step, bench/results/env.json): 16 envs as they ask in a run
   */
  batchedAtEnvPace: Arm;
  /** the clients send raw observations, the worker featurizes (model.featurize: inference) */
  batchedFeaturizingInWorker: Arm;
  unbatched: Arm;
  /** median batched actions/s over median unbatched actions/s */
  speedup: number;
  /** unbatched over batched worker CPU time per action (medians) */
  cpuSpeedup: number | null;
  floor: number;
  /** the policy's own costs per call and per input: what bounds the speedup (inference-costs.ts) */
  model: ModelCosts;
}

export async function inferenceBench(options = { rounds: 3, seconds: 8 }): Promise<InferenceBench> {
  const arm = (maxBatch: number, maxWaitMs: number, featurize: Featurize = 'env', envStepMs = 0): Arm => ({
    featurize,
    envStepMs,
    maxBatch,
    maxWaitMs,
    actionsPerS: [],
    median: 0,
    workerCpuMsPerAction: [],
    workerCpuMsMedian: null,
    clientCpuMsPerAction: [],
    featurizeMsPerPage: [],
    meanBatch: [],
    loadavg: [],
    p50Ms: [],
    p95Ms: [],
    p95MsMedian: 0,
  });
  const batched = arm(16, 5);
  const batchedFeaturizingInWorker = arm(16, 5, 'inference');
  const unbatched = arm(1, 0);
  const batchedAtEnvPace = arm(16, 5, 'env', envStepMs());
  let backend = '?';
  const pages = pageSource(ENVS);
  for (let round = 0; round < options.rounds; round++) {
    // Alternate which goes first: the machine's load drifts.
    const arms = [batched, batchedFeaturizingInWorker, unbatched, batchedAtEnvPace];
    const order = round % 2 === 0 ? arms : [...arms].reverse();
    for (const a of order) {
      const worker = await startInference(a.maxBatch, a.maxWaitMs);
      backend = worker.backend;
      try {
        a.loadavg.push(round2(loadavg()[0]!));
        const m = await measure(worker, options.seconds, pages, a.featurize, a.envStepMs);
        a.actionsPerS.push(m.actionsPerS);
        if (m.workerCpuMs !== null) a.workerCpuMsPerAction.push(m.workerCpuMs);
        a.clientCpuMsPerAction.push(m.clientCpuMs);
        if (m.featurizeMsPerPage !== null) a.featurizeMsPerPage.push(m.featurizeMsPerPage);
        a.p50Ms.push(round2(m.p50Ms));
        a.p95Ms.push(round2(m.p95Ms));
        const counters = (await status(worker.runDir))?.workers.find((w) => w.role === 'inference')?.counters;
        a.meanBatch.push(counters?.meanBatch ?? 0);
      } finally {
        await stop(worker.runDir);
      }
    }
  }
  const model = await modelCosts(pages);
  for (const a of [batched, batchedFeaturizingInWorker, unbatched, batchedAtEnvPace]) {
    a.median = median(a.actionsPerS);
    a.p95MsMedian = median(a.p95Ms);
    a.workerCpuMsMedian = a.workerCpuMsPerAction.length > 0 ? median(a.workerCpuMsPerAction) : null;
  }
  return {
    method:
      `${ENVS} concurrent clients over the real act socket (ipc), each with one request in flight, ` +
      `each walking through ${pages.kind === 'demos' ? "MiniArena's recorded oracle steps" : 'new synthetic pages'}, ` +
      `against a real inference worker; ${options.rounds} rounds ` +
      `(batchedAtEnvPace: each client waits 0.5–1.5× the env bench's ms per step, ${round2(batchedAtEnvPace.envStepMs)} ms, between a reply and its next request) ` +
      `of ${options.seconds} s, alternating; medians. CPU ms per action from /proc (worker) and process.cpuUsage (clients)`,
    pages: pages.kind,
    concurrentEnvs: ENVS,
    backend,
    batched,
    batchedAtEnvPace,
    batchedFeaturizingInWorker,
    unbatched,
    speedup: batched.median / unbatched.median,
    cpuSpeedup:
      batched.workerCpuMsMedian !== null && unbatched.workerCpuMsMedian !== null
        ? unbatched.workerCpuMsMedian / batched.workerCpuMsMedian
        : null,
    floor: 4,
    model,
  };
}
