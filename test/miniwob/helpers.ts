// MiniWoB++'s real pages (../shared/data/miniwob/html beside the clone) or tti's protocol stand-ins
// (test/fixtures/miniwob/html), served on loopback, and a browser env on them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BrowserEnv, type BrowserEnvConfig, type Observation } from '../../src/envs/index.js';
import {
  type MiniwobHookOptions,
  type MiniwobServer,
  miniwobHooks,
  miniwobTask,
  serveMiniwobDir,
} from '../../src/suites/miniwob/index.js';
import { projectRoot } from '../../src/util/paths.js';

export const FIXTURE_HTML = path.join(projectRoot, 'test', 'fixtures', 'miniwob', 'html');

/** MiniWoB++'s own html/ folder (miniwob-plusplus at 3f461ff), kept beside the clone in ../shared. */
export const REAL_HTML = path.join(projectRoot, '..', 'shared', 'data', 'miniwob', 'html');

/** A browser env with the MiniWoB++ suite's hooks, on a folder's pages served on loopback (default: the stand-ins). */
export async function miniwobEnv(
  config: BrowserEnvConfig = {},
  hooks: MiniwobHookOptions = {},
  html: string = FIXTURE_HTML,
): Promise<{ env: BrowserEnv; server: MiniwobServer; task: (id: string) => ReturnType<typeof miniwobTask> }> {
  if (!existsSync(path.join(html, 'miniwob')))
    throw new Error(
      `no MiniWoB++ pages at ${html}/miniwob (the real ones live in ../shared/data/miniwob/html)`,
    );
  const server = await serveMiniwobDir(html);
  // as a MiniWoB++ run's env worker (--preset miniwob): each episode in the last one's cleaned context
  const env = await BrowserEnv.launch({
    actionFormat: 'tti',
    hooks: miniwobHooks(hooks),
    reuseContext: true,
    allowedOrigins: [new URL(server.url).origin],
    ...config,
  });
  return { env, server, task: (id) => miniwobTask(server.url, id, `miniwob:${html}`) };
}

/** The same env on MiniWoB++'s real pages. */
export function realMiniwobEnv(config: BrowserEnvConfig = {}, hooks: MiniwobHookOptions = {}) {
  return miniwobEnv(config, hooks, REAL_HTML);
}

/** The id of the first node with this role whose name is `name`. */
export function nodeId(observation: Observation, role: string, name: string): string {
  const node = observation.nodes.find((n) => n.role === role && n.name.trim() === name);
  if (!node) throw new Error(`no ${role} "${name}" in:\n${observation.text}`);
  return node.id;
}

/** The quoted word of an utterance: Click on the "apple" button. → apple */
export function quoted(utterance: string): string {
  const m = /"([^"]+)"/.exec(utterance);
  if (!m) throw new Error(`no quoted word in ${JSON.stringify(utterance)}`);
  return m[1]!;
}

/** The texts of MiniWoB++'s human display (BrowserGym removes it). */
export const HUMAN_DISPLAY = ['Last reward:', 'Last 10 average:', 'Time left', 'Episodes done'];

/** Which of the human display's texts the observation shows, in its text or its nodes' names. */
export function humanDisplayShown(obs: Observation): string[] {
  const names = obs.nodes.map((n) => n.name).join('\n');
  return HUMAN_DISPLAY.filter((text) => obs.text.includes(text) || names.includes(text));
}
