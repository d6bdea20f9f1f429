// MiniWoB++ step benchmark: tti's seconds per env step and per episode on the real MiniWoB++ pages
// (../shared/data/miniwob/html), one env worker's episode runner and browser env with a seeded
// random policy answered in-process (the policy's own time is left out of both sides), against a
// bare playwright-core loop that does the same reset (load the page, seed, start the episode) and
// the same kind of action (a click at the centre of a random element of the accessibility tree),
// over the same tasks, seeds and horizon, in one run. tti's episodes also report where their time
// went (the episode result's timing), which is what the cuts are measured against.
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../src/config/index.js';
import { BrowserEnv, CHROMIUM_ARGS, findChromium } from '../src/envs/index.js';
import { EpisodeRunner, type EpisodeWorker } from '../src/episode/index.js';
import type { EpisodeTiming, TaskAssignmentMessage } from '../src/protocol/index.js';
import { strategiesFor } from '../src/strategies/index.js';
import { suiteWorkerContext } from '../src/suites/index.js';
import {
  MINIWOB_VIEWPORT,
  miniwobSuite,
  parseMiniwobTaskId,
  readMiniwobResult,
  startMiniwobEpisode,
} from '../src/suites/miniwob/index.js';
import { projectRoot } from '../src/util/paths.js';

/** 15 common MiniWoB++ tasks of the shipped pages (clicks, forms, typing, menus, an inbox). */
export const MINIWOB_BENCH_TASKS = [
  'click-test',
  'click-test-2',
  'click-dialog-2',
  'click-tab-2-easy',
  'focus-text-2',
  'enter-text-2',
  'enter-password',
  'login-user-popup',
  'click-checkboxes-soft',
  'click-collapsible',
  'click-menu',
  'use-autocomplete-nodelay',
  'email-inbox-delete',
  'click-button-sequence',
  'enter-date',
];

export interface MiniwobStepBenchOptions {
  seeds?: number;
  horizon?: number;
  tasks?: string[];
  /** episodes in the env's kept context (env.reuse_context, the pages confined to their origin) */
  reuse?: boolean;
  /** the network's quiet window before an observation (default: the suite's) */
  quietMs?: number;
}

interface Side {
  episodes: number;
  steps: number;
  seconds: number;
  sPerStep: number;
  sPerEpisode: number;
}

/** A small seeded generator (mulberry32): both sides draw their clicks the same way. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const side = (episodes: number, steps: number, ms: number): Side => ({
  episodes,
  steps,
  seconds: ms / 1000,
  sPerStep: steps > 0 ? ms / 1000 / steps : 0,
  sPerEpisode: episodes > 0 ? ms / 1000 / episodes : 0,
});

export async function miniwobStepBench(options: MiniwobStepBenchOptions = {}) {
  const seeds = options.seeds ?? 1;
  const horizon = options.horizon ?? 10;
  const names = options.tasks ?? MINIWOB_BENCH_TASKS;
  const dir = path.join(projectRoot, '..', 'shared', 'data', 'miniwob', 'html');
  // as a user's MiniWoB++ run sets up its env worker (--preset miniwob: a kept context, key typing)
  const config = loadConfig(
    null,
    [
      `env.miniwob.dir=${dir}`,
      `env.miniwob.tasks=[${names.join(',')}]`,
      `env.miniwob.eval_episodes=${seeds}`,
    ],
    ['miniwob'],
  );
  const log = { info: () => undefined, warn: () => undefined };
  const refs = (await miniwobSuite.tasks({ config, log } as never, () => true)).test;
  const host = await miniwobSuite.start(
    suiteWorkerContext({ config, workerId: 'env-bench', runDir: null, log } as never),
  );
  const b = host.browser;
  const quietMs = options.quietMs ?? b.quietMs;
  const env = await BrowserEnv.launch({
    viewport: b.viewport ?? MINIWOB_VIEWPORT,
    ...(b.hooks ? { hooks: b.hooks } : {}),
    ...(quietMs === undefined ? {} : { quietMs }),
    offerStop: b.offers?.stop ?? true,
    offerNavigation: b.offers?.navigation ?? true,
    observation: { flags: b.flags ?? false },
    actionFormat: config.env.action_format,
    actionTimeoutMs: config.env.action_timeout_ms,
    typing: config.env.typing,
    reuseContext: options.reuse ?? config.env.reuse_context,
    episodeTimeoutMs: config.env.episode_timeout_ms,
    allowedOrigins: host.origins,
  });
  let draw = random(0);
  let current = refs[0]!;
  /** each episode's clicks as tti made them (null: a node without a box), replayed by the bare loop */
  const episodeClicks: ({ x: number; y: number } | null)[][] = refs.map(() => []);
  let clicks = episodeClicks[0]!;
  const worker: EpisodeWorker = {
    workerId: 'env-bench',
    signature: {},
    config,
    env,
    counters: {},
    labels: {},
    log: { debug: () => undefined, ...log },
    recording: false,
    chatPolicy: false,
    featurizeHere: true,
    maxImages: 1,
    viewport: b.viewport ?? MINIWOB_VIEWPORT,
    offers: b.offers ?? { stop: true },
    actTimeoutMs: 10_000,
    task: () => host.task(current),
    beforeReset: async () => host.beforeEpisode?.(),
    afterReset: () => undefined,
    store: async () => true,
    ask: async (request) => {
      const nodes = request.observation.nodes;
      const ids = nodes.ids;
      const k = Math.floor(draw() * ids.length);
      const id = ids[k] ?? '0';
      // the point tti clicks (its box's centre), for the bare loop to click in the same episode
      const [x, y, w, h] = [nodes.x?.[k], nodes.y?.[k], nodes.w?.[k], nodes.h?.[k]];
      clicks.push(x !== undefined && y !== undefined && w && h ? { x: x + w / 2, y: y + h / 2 } : null);
      const reply = `Thought: a random click.\nAction: Click [${id}]`;
      return {
        message: {
          type: 'act_reply',
          episodeId: request.episodeId,
          step: request.step,
          reply,
          policyVersion: 0,
        },
      };
    },
  };
  const runner = new EpisodeRunner(worker, strategiesFor(config));
  const timing: Record<string, number> = {};
  /** each episode's steps on either side: the same clicks should give the same count */
  const ttiSteps: number[] = refs.map(() => 0);
  const bareSteps: number[] = refs.map(() => 0);
  const errors: string[] = [];
  const runTti = async (count: boolean) => {
    let steps = 0;
    const began = performance.now();
    for (const [i, ref] of refs.entries()) {
      current = ref;
      draw = random(i + 1);
      clicks = [];
      episodeClicks[i] = clicks;
      const assignment: TaskAssignmentMessage = {
        type: 'task_assignment',
        requestId: i,
        episodeId: `bench-${i}`,
        taskFile: ref.file,
        taskId: ref.id,
        horizon,
        minTry: 1,
        split: 'test',
        iteration: 0,
        greedy: true,
        temperature: 1,
        seed: i,
        toReplay: false,
      };
      const result = await runner.run(assignment, i).catch((e: Error) => {
        errors.push(`${ref.id}: ${e.message}`);
        return null;
      });
      if (result === null) continue;
      steps += result.steps;
      ttiSteps[i] = result.steps;
      if (count && result.timing)
        for (const [k, v] of Object.entries(result.timing as EpisodeTiming)) timing[k] = (timing[k] ?? 0) + v;
    }
    return side(refs.length, steps, performance.now() - began);
  };

  // the bare loop: one page, reloaded and seeded each episode, tti's clicks of the same episode at the
  // same points (so both sides run the same episodes, step for step), the AX tree read each step
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: b.viewport ?? MINIWOB_VIEWPORT });
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const runBare = async () => {
    let steps = 0;
    const began = performance.now();
    for (const [i, ref] of refs.entries()) {
      const url = host.task(ref).task.startUrls[0]!;
      bareSteps[i] = 0;
      await page.goto(url, { waitUntil: 'load' });
      await startMiniwobEpisode(page, parseMiniwobTaskId(ref.id).seed, 1_000_000, 10_000, true);
      for (const point of episodeClicks[i] ?? []) {
        await cdp.send('Accessibility.getFullAXTree');
        steps++;
        bareSteps[i] = (bareSteps[i] ?? 0) + 1;
        if (point) await page.mouse.click(point.x, point.y);
        if ((await readMiniwobResult(page)).done) break;
      }
    }
    return side(refs.length, steps, performance.now() - began);
  };

  await runTti(false); // warm-up, untimed (Chromium's caches, the JIT)
  await runBare();
  const tti = await runTti(true);
  const bare = await runBare();
  await browser.close();
  await env.close();
  await host.close();
  const split = Object.fromEntries(
    Object.entries(timing).map(([k, ms]) => [k.replace(/Ms$/, ''), Math.round(ms / Math.max(1, tti.steps))]),
  );
  return {
    method:
      'one env worker (EpisodeRunner + BrowserEnv, featurized where the page is) with a seeded random click policy answered in-process, against a bare playwright-core loop (goto + seed + start; getFullAXTree, the click tti made at that step of the same episode, WOB_DONE read), same tasks, seeds and horizon; a warm-up pass of each first',
    tasks: names,
    seeds,
    horizon,
    tti,
    bare,
    reuseContext: options.reuse ?? config.env.reuse_context,
    errors,
    ratioPerStep: bare.sPerStep > 0 ? tti.sPerStep / bare.sPerStep : 0,
    ratioPerEpisode: bare.sPerEpisode > 0 ? tti.sPerEpisode / bare.sPerEpisode : 0,
    /** tti's ms a step by part (the episode results' timing, summed, over its steps) */
    ttiMsPerStepByPart: split,
    /** episodes where the bare loop's replay of tti's clicks took another number of steps */
    stepsDiffer: refs.flatMap((ref, i) =>
      ttiSteps[i] === bareSteps[i] ? [] : [`${ref.id}: tti ${ttiSteps[i]}, bare ${bareSteps[i]}`],
    ),
  };
}
