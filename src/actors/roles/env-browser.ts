// The env worker's Chromium: launched as its suite shows and runs pages, and its processes
// recorded in the run directory, so a successor kills one that outlived its worker.
import path from 'node:path';
import { BrowserEnv, VIEWPORT } from '../../envs/index.js';
import { ownBrowsers, reapBrowsers, recordBrowsers } from '../../run/index.js';
import type { SuiteHost } from '../../suites/index.js';
import { configuredJudges } from './env-judges.js';
import type { RoleContext } from './worker-shell.js';

/** Kills a predecessor's Chromium; returns what records this worker's own (after each launch). */
export function browserRecords(ctx: RoleContext): () => void {
  const runDir = ctx.runDir;
  if (runDir !== null) {
    const killed = reapBrowsers(runDir, ctx.workerId);
    if (killed.length > 0) ctx.log.warn(`killed ${killed.length} Chromium process(es) a predecessor left`);
  }
  let recorded = '';
  return () => {
    if (runDir === null) return;
    const browsers = ownBrowsers();
    const now = JSON.stringify(browsers.map((b) => b.pid));
    if (now === recorded) return;
    recordBrowsers(runDir, ctx.workerId, browsers);
    ctx.log.info(`Chromium pid(s) ${now} recorded in ${runDir}/pids`);
    recorded = now;
  };
}

/** The browser env for the suite's host, and how it shows pages. */
export async function launchEnv(ctx: RoleContext, host: SuiteHost) {
  // A chat policy sees a set-of-marks screenshot every step (TTI's multimodal prompt); the
  // trainable policy reads the text, and screenshots go only into records, per episode.
  const chatPolicy = ctx.config.policy_lm !== 'tfjs';
  const recording = ctx.config.env.record_episodes && ctx.runDir !== null;
  const viewport = host.browser.viewport ?? VIEWPORT;
  // What the suite offers and how it shows its pages (stop offered and WebArena's text by default).
  const offers = host.browser.offers ?? { stop: true };
  const flags = ctx.config.env.observation_flags ?? host.browser.flags ?? false;
  const env = await BrowserEnv.launch({
    viewport,
    ...(host.browser.hooks ? { hooks: host.browser.hooks } : {}),
    ...(host.browser.quietMs === undefined ? {} : { quietMs: host.browser.quietMs }),
    offerStop: offers.stop,
    offerNavigation: offers.navigation ?? true,
    observation: { flags, ...(chatPolicy ? { setOfMarks: true } : {}) },
    ...configuredJudges(ctx),
    actionFormat: ctx.config.env.action_format,
    actionTimeoutMs: ctx.config.env.action_timeout_ms,
    typing: ctx.config.env.typing,
    reuseContext: ctx.config.env.reuse_context,
    episodeTimeoutMs: ctx.config.env.episode_timeout_ms,
    allowedOrigins: host.origins,
    ...(recording ? { recordDir: path.join(ctx.runDir ?? '.', 'episodes') } : {}),
  });
  return { env, chatPolicy, recording, viewport, offers };
}
