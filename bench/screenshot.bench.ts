// What a JPEG screenshot per step costs: the env bench's step (click, wait for load, observe) on
// the same shop listing, with `observation.screenshot` off and on, rounds interleaved; plus the
// screenshot call alone and its size, on that listing and on MiniArena's pages. This decides
// whether training runs record screenshots by default (docs/viewer.md).
import { chromium } from 'playwright-core';
import { startMiniArenaHost } from '../src/arena/index.js';
import { BrowserEnv, CHROMIUM_ARGS, findChromium, VIEWPORT } from '../src/envs/index.js';
import { screenshotWithMarks } from '../src/envs/observation/set-of-marks.js';
import { oursSide, serveShop } from './env.bench.js';
import { offOnRounds } from './off-on-rounds.js';

export interface ScreenshotBenchOptions {
  /** Timed rounds per side, alternating. Default 30. */
  rounds?: number;
  stepsPerRound?: number;
  /** Screenshots timed alone on each page. Default 15. */
  shots?: number;
  jpegQuality?: number;
}

export interface ShotCost {
  page: string;
  medianMs: number;
  p90Ms: number;
  medianBytes: number;
}

export interface ScreenshotBenchResult {
  method: string;
  options: Required<ScreenshotBenchOptions>;
  step: { offMs: number; onMs: number; costMs: number; costFraction: number };
  alone: ShotCost[];
  /** The step cost above which training keeps screenshots opt-in. */
  threshold: number;
  optIn: boolean;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))]!;
};

export async function screenshotBench(options: ScreenshotBenchOptions = {}): Promise<ScreenshotBenchResult> {
  const opts = {
    rounds: options.rounds ?? 30,
    stepsPerRound: options.stepsPerRound ?? 5,
    shots: options.shots ?? 15,
    jpegQuality: options.jpegQuality ?? 80,
  };
  const executablePath = findChromium();
  const { origin, server } = await serveShop(60);
  const arena = await startMiniArenaHost();
  const start = `${origin}/shop?page=1`;
  const common = { executablePath, quietMs: 50, earlyStop: { parsingFailures: 0, repeatedActions: 0 } };
  const off = oursSide(await BrowserEnv.launch(common));
  const on = oursSide(
    await BrowserEnv.launch({ ...common, observation: { screenshot: true, jpegQuality: opts.jpegQuality } }),
  );
  const browser = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const ms = await offOnRounds(off, on, start, opts.rounds, opts.stepsPerRound);
    const offMs = quantile(ms.off, 0.5);
    const onMs = quantile(ms.on, 0.5);

    // The call alone, as observe() makes it (no marks), on the listing and MiniArena's pages.
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const alone: ShotCost[] = [];
    const pages = [
      ['shop listing (bench)', start],
      ['MiniArena shop home', `${arena.origin}/shop/`],
      ['MiniArena forum', `${arena.origin}/forum/`],
      ['MiniArena tracker', `${arena.origin}/tracker/`],
    ] as const;
    for (const [name, url] of pages) {
      await page.goto(url, { waitUntil: 'load' });
      const times: number[] = [];
      const bytes: number[] = [];
      for (let i = 0; i < opts.shots + 2; i++) {
        const t0 = performance.now();
        const shot = await screenshotWithMarks(page, [], opts.jpegQuality);
        if (i >= 2) {
          times.push(performance.now() - t0);
          bytes.push(shot.length);
        }
      }
      alone.push({
        page: name,
        medianMs: quantile(times, 0.5),
        p90Ms: quantile(times, 0.9),
        medianBytes: quantile(bytes, 0.5),
      });
    }
    const costFraction = (onMs - offMs) / offMs;
    return {
      method:
        "BrowserEnv steps (env.bench's click + load wait + observe on a 60-product listing) with " +
        'observation.screenshot off and on, in interleaved rounds (medians of ms per step); then ' +
        'the screenshot call alone (page.screenshot JPEG of the 1280×720 viewport, as observe() takes it) on each page.',
      options: opts,
      step: { offMs, onMs, costMs: onMs - offMs, costFraction },
      alone,
      threshold: 0.1,
      optIn: costFraction > 0.1,
    };
  } finally {
    await off.close().catch(() => {});
    await on.close().catch(() => {});
    await browser.close().catch(() => {});
    await arena.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

// `node dist/bench/screenshot.bench.js` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await screenshotBench();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
