// What recording an episode's network trace costs (WebArena-Verified's NetworkEventEvaluator reads
// it): the env bench's step (click, wait for load, observe) on the same shop listing, without and
// with the trace listening on the context, rounds interleaved; then, per episode, ending the trace
// (its HAR) and scoring it with a network check.
import {
  BrowserEnv,
  type EpisodeHooks,
  evaluateNetworkEvents,
  findChromium,
  type HarLog,
  NetworkEventEvaluatorSchema,
  networkEvents,
} from '../src/envs/index.js';
import { verified } from '../src/suites/index.js';
import { oursSide, serveShop } from './env.bench.js';
import { offOnRounds } from './off-on-rounds.js';

export interface NetworkTraceBenchResult {
  method: string;
  options: { rounds: number; stepsPerRound: number };
  step: { offMs: number; onMs: number; costMs: number; costFraction: number };
  perEpisode: { steps: number; entries: number; stopMs: number; harBytes: number; scoreMs: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Hooks that record the trace as the verified suite's do, and keep the last one for measuring. */
function tracingHooks(): { hooks: EpisodeHooks; last: () => verified.NetworkTrace | null } {
  let trace: verified.NetworkTrace | null = null;
  return {
    hooks: {
      async start({ page, task }) {
        trace = new verified.NetworkTrace(page.context());
        return task;
      },
    },
    last: () => trace,
  };
}

export async function networkTraceBench(
  o: { rounds?: number; stepsPerRound?: number } = {},
): Promise<NetworkTraceBenchResult> {
  const opts = { rounds: o.rounds ?? 20, stepsPerRound: o.stepsPerRound ?? 5 };
  const executablePath = findChromium();
  const { origin, server } = await serveShop(60);
  const start = `${origin}/shop?page=1`;
  const common = { executablePath, quietMs: 50, earlyStop: { parsingFailures: 0, repeatedActions: 0 } };
  const traced = tracingHooks();
  const off = oursSide(await BrowserEnv.launch(common));
  const on = oursSide(await BrowserEnv.launch({ ...common, hooks: traced.hooks }));
  const check = NetworkEventEvaluatorSchema.parse({
    evaluator: 'NetworkEventEvaluator',
    expected: { url: '__SHOPPING__/shop', query_params: { page: ['3'] } },
  });
  const derender = verified.verifiedDerender(new Map([['__SHOPPING__', origin]]));
  const stops: number[] = [];
  const scores: number[] = [];
  let last = { entries: 0, harBytes: 0 };
  const endTraced = async () => {
    const trace = traced.last();
    if (!trace) return;
    const t0 = performance.now();
    const har: HarLog = await trace.stop();
    stops.push(performance.now() - t0);
    const t1 = performance.now();
    evaluateNetworkEvents(check, networkEvents(har), { taskType: 'mutate', derender });
    scores.push(performance.now() - t1);
    last = { entries: har.log.entries.length, harBytes: JSON.stringify(har).length };
  };
  try {
    const ms = await offOnRounds(off, on, start, opts.rounds, opts.stepsPerRound, async (name) => {
      if (name === 'on') await endTraced();
    });
    const offMs = median(ms.off);
    const onMs = median(ms.on);
    return {
      method:
        "BrowserEnv steps (env.bench's click + load wait + observe on a 60-product listing) without and with " +
        "the verified suite's network trace (context 'request'/'requestfinished' listeners) in interleaved " +
        'rounds (medians of ms per step); per 50-step episode, the trace ended into HAR and scored with one network check.',
      options: opts,
      step: { offMs, onMs, costMs: onMs - offMs, costFraction: (onMs - offMs) / offMs },
      perEpisode: { steps: 10 * opts.stepsPerRound, ...last, stopMs: median(stops), scoreMs: median(scores) },
    };
  } finally {
    await off.close().catch(() => {});
    await on.close().catch(() => {});
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
