// MiniWoB++ on its real pages (../shared/data/miniwob/html beside the clone), BrowserGym's page:
//   start   BrowserEnv.reset of a task (page load, seeding, core.startEpisodeReal, WOB_TASK_READY,
//           the human display taken out, the first observation)
//   step    one action that leaves the episode going (a Wait, then the usual wait for the page and
//           the next observation, WOB_DONE_GLOBAL read)
// Pages of several kinds (a form, buttons, checkboxes, an inbox, an autocomplete, tabs, a
// sortable list), each round over all of them; medians, and env steps/s of start + steps.
import { loadavg } from 'node:os';
import path from 'node:path';
import { BrowserEnv } from '../src/envs/index.js';
import { MINIWOB_VIEWPORT, miniwobHooks, miniwobTask, serveMiniwobDir } from '../src/suites/miniwob/index.js';
import { projectRoot } from '../src/util/paths.js';

export const REAL_MINIWOB_HTML = path.join(projectRoot, '..', 'shared', 'data', 'miniwob', 'html');

const PAGES = [
  'enter-password',
  'click-test-2',
  'click-checkboxes-soft',
  'email-inbox-delete',
  'use-autocomplete-nodelay',
  'click-tab-2',
  'drag-items',
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function miniwobBench(options: { rounds?: number; stepsPerEpisode?: number } = {}) {
  const rounds = options.rounds ?? 5;
  const steps = options.stepsPerEpisode ?? 3;
  const loadBefore = loadavg();
  const server = await serveMiniwobDir(REAL_MINIWOB_HTML);
  const env = await BrowserEnv.launch({
    actionFormat: 'tti',
    hooks: miniwobHooks(),
    viewport: MINIWOB_VIEWPORT,
    observation: { flags: true },
    offerStop: false,
    horizon: steps + 1,
  });
  const start: Record<string, number[]> = {};
  const step: number[] = [];
  let envSteps = 0;
  let envMs = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const name of PAGES) {
        const task = miniwobTask(server.url, `${name}@${round}`, `miniwob:${REAL_MINIWOB_HTML}`);
        const t0 = performance.now();
        await env.reset(task);
        const startMs = performance.now() - t0;
        start[name] = [...(start[name] ?? []), startMs];
        for (let k = 0; k < steps; k++) {
          const s0 = performance.now();
          const r = await env.step({ type: 'wait' });
          step.push(performance.now() - s0);
          if (r.done) break;
        }
        envSteps += steps;
        envMs += performance.now() - t0;
        await env.abandon();
      }
    }
  } finally {
    await env.close();
    await server.close();
  }
  return {
    pages: PAGES,
    rounds,
    stepsPerEpisode: steps,
    startMs: Object.fromEntries(Object.entries(start).map(([k, v]) => [k, Math.round(median(v))])),
    startMedianMs: Math.round(median(Object.values(start).flat())),
    stepMedianMs: Math.round(median(step)),
    envStepsPerS: Math.round((envSteps / (envMs / 1000)) * 100) / 100,
    loadAverage: { before: loadBefore, after: loadavg() },
  };
}
