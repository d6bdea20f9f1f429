// The MiniWoB++ protocol stand-ins (test/fixtures/miniwob/html), served on loopback, and a browser env on them.
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

/** A browser env with the MiniWoB++ suite's hooks, on the stand-in pages served on loopback. */
export async function miniwobEnv(
  config: BrowserEnvConfig = {},
  hooks: MiniwobHookOptions = {},
): Promise<{ env: BrowserEnv; server: MiniwobServer; task: (id: string) => ReturnType<typeof miniwobTask> }> {
  const server = await serveMiniwobDir(FIXTURE_HTML);
  const env = await BrowserEnv.launch({ actionFormat: 'tti', hooks: miniwobHooks(hooks), ...config });
  return { env, server, task: (id) => miniwobTask(server.url, id, `miniwob:${FIXTURE_HTML}`) };
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
