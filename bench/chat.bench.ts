// The chat path: a real run (supervisor, `envWorkers` env workers with Chromium on MiniArena, a chat
// inference worker, replay, an external learner; real processes over ZeroMQ) whose policy is a
// modelled served LLM (chat-endpoint.ts: log-normal latency growing with the batch, under a
// max_num_seqs cap). Each answered completion is one env step. We report env steps/s over the
// collection (first to last completion, the learner's turns between iterations included) and the
// endpoint's busy share over the same span. `loop` is the collection mode: 'sync' is TTI's loop
// (collect, stop, train); 'async' sets rollout.max_policy_lag (collection runs on while the learner trains).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { cliEntry, projectRoot } from '../src/util/paths.js';
import { writeAnyAnswerTasks } from '../test/helpers/any-answer-tasks.js';
import { ModelledEndpoint, type ModelledEndpointOptions } from './chat-endpoint.js';

export interface ChatBenchOptions {
  loop: 'sync' | 'async';
  /** rollout.max_policy_lag for 'async' */
  maxPolicyLag?: number;
  envWorkers: number;
  iterations: number;
  rolloutSize: number;
  horizon: number;
  endpoint: Omit<ModelledEndpointOptions, 'reply'>;
  /** chance that a reply is an answer (the episode ends) rather than a scroll */
  answerChance: number;
  timeoutMs: number;
  /**
   * The modelled fine-tune's time per SFT sample (one kept step) in ms, 0 for a learner that returns
   * at once: the trainer sleeps samples × this, then writes its adapter. What asynchronous
   * collection can save grows with it (the synchronous loop collects nothing meanwhile).
   */
  trainerMsPerSample: number;
}

// The external learner: reads the iteration's SFT file, "trains" for samples × ms, writes an adapter.
const TRAINER = `
const fs = require('node:fs');
const [data, out, version, msPerSample] = process.argv.slice(2);
const samples = fs.readFileSync(data, 'utf8').split('\\n').filter(Boolean).length;
setTimeout(() => fs.writeFileSync(out + '/adapter.json', JSON.stringify({ version, samples })), samples * Number(msPerSample));
`;

export async function chatBench(o: ChatBenchOptions) {
  let n = 0;
  const endpoint = await ModelledEndpoint.start({
    ...o.endpoint,
    // Deterministic from the request count: a scroll, or the answer that ends the episode.
    reply: () => {
      n += 1;
      const u = ((n * 2654435761) >>> 0) / 4294967296;
      return u < o.answerChance
        ? 'Thought: I can see the price.\nAction: ANSWER [$12]'
        : 'Thought: the product page is open.\nAction: Scroll [down]';
    },
  });
  const root = mkdtempSync(path.join(tmpdir(), 'tti-chatbench-'));
  const runDir = path.join(root, 'run');
  const tasks = writeAnyAnswerTasks(root, 8);
  const trainer = path.join(root, 'trainer.cjs');
  writeFileSync(trainer, TRAINER);
  const sets = [
    'collect.stop_probes=false',
    // 16 Chromiums starting at once on a loaded 2-core machine take longer than the default 30 s.
    'supervisor.register_timeout_ms=300000',
    `workers.env=${o.envWorkers}`,
    'workers.inference=1',
    'workers.replay=1',
    'workers.learner=1',
    'policy_lm=bench-llm',
    `chat.base_url=${endpoint.baseUrl}`,
    `chat.concurrency=${Math.max(o.envWorkers, o.endpoint.maxNumSeqs)}`,
    `chat.timeout_ms=${o.timeoutMs}`,
    'learner.kind=external',
    `learner.command=[${JSON.stringify(process.execPath)}, ${JSON.stringify(trainer)}, "{data}", "{out}", "{version}", "${o.trainerMsPerSample}"]`,
    'learner.serve=lora',
    `iterations=${o.iterations}`,
    `rollout_size=${o.rolloutSize}`,
    `horizon_schedule=[${o.horizon}]`,
    'eval_every=100',
    'eval_tasks=1',
    'eval_horizon=2',
    `tasks.train=${tasks}`,
    `tasks.test=${tasks}`,
    ...(o.loop === 'async' ? [`rollout.max_policy_lag=${o.maxPolicyLag ?? 1}`] : []),
  ];
  const load0 = loadavg();
  const t0 = performance.now();
  let output = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        cliEntry,
        'train',
        '--config',
        'configs/miniarena.yaml',
        '--run-dir',
        runDir,
        '--view',
        'log',
        ...sets.flatMap((s) => ['--set', s]),
      ],
      { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-4000);
    });
    child.stderr.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), o.timeoutMs * 20);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  const wallS = (performance.now() - t0) / 1000;
  const load1 = loadavg();
  const usage = endpoint.usage();
  await endpoint.close();
  const metricsFile = path.join(runDir, 'metrics.jsonl');
  const rows = existsSync(metricsFile)
    ? readFileSync(metricsFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map(
          (l) =>
            JSON.parse(l) as {
              train?: { episodes?: number; success?: number };
              lag?: { max: number; stale: number };
            },
        )
    : [];
  rmSync(root, { recursive: true, force: true });
  if (code !== 0) throw new Error(`the chat run exited with ${code}:\n${output}`);

  const at = endpoint.answeredAt;
  const first = endpoint.firstRequestAt ?? 0;
  const last = at.at(-1) ?? 0;
  const spanS = (last - first) / 1000;
  // Both over the span from the first request to the last answer: the run's start-up (Chromium,
  // registration) and shutdown are not the loop's.
  return {
    loop: o.loop,
    maxPolicyLag: o.loop === 'async' ? (o.maxPolicyLag ?? 1) : 0,
    envWorkers: o.envWorkers,
    iterations: o.iterations,
    rolloutSize: o.rolloutSize,
    horizon: o.horizon,
    endpoint: o.endpoint,
    answerChance: o.answerChance,
    trainerMsPerSample: o.trainerMsPerSample,
    envSteps: at.length,
    episodes: rows.reduce((a, r) => a + (r.train?.episodes ?? 0), 0),
    /** episodes sampled more than the bound behind, left out of their batch (wasted steps) */
    staleEpisodes: rows.reduce((a, r) => a + (r.lag?.stale ?? 0), 0),
    maxLag: rows.reduce((a, r) => Math.max(a, r.lag?.max ?? 0), 0),
    collectionSpanS: Math.round(spanS * 10) / 10,
    envStepsPerS: Math.round((at.length / Math.max(0.001, spanS)) * 100) / 100,
    endpointBusyShare: Math.round((usage.busyMs / Math.max(1, last - first)) * 1000) / 1000,
    /** mean sequences running while busy */
    endpointMeanBatch: Math.round((usage.seqMs / Math.max(1, usage.busyMs)) * 100) / 100,
    runWallS: Math.round(wallS * 10) / 10,
    loadAverage: { before: load0, after: load1 },
  };
}

export type ChatBenchResult = Awaited<ReturnType<typeof chatBench>>;

export function describeChatBench(r: ChatBenchResult): string {
  return (
    `chat path (${r.loop}, ${r.envWorkers} env workers, modelled LLM median ${r.endpoint.medianMs} ms, ` +
    `trainer ${r.trainerMsPerSample} ms a sample, ` +
    `max_num_seqs ${r.endpoint.maxNumSeqs}): ${r.envSteps} env steps in ${r.collectionSpanS} s = ` +
    `${r.envStepsPerS} steps/s (${r.staleEpisodes} stale episodes, lag ≤ ${r.maxLag}); endpoint busy ${(r.endpointBusyShare * 100).toFixed(1)}% (mean batch ` +
    `${r.endpointMeanBatch}); run ${r.runWallS} s; load ${r.loadAverage.before.map((x) => x.toFixed(1)).join(' ')}\n`
  );
}
