// MiniArena: tti's own WebArena-format sites (a shop, a forum, a tracker) and their task files
// (tasks/miniarena/). Each env worker serves its own instance on a free port, resets it to its
// seeded state before every episode, and writes the sites' logins where the tasks' storage states
// point; the `host-down` fault closes it for a while.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  MINIARENA_QUIET_MS,
  type MiniArenaHost,
  startMiniArenaHost,
  WEBARENA_SITES,
  type WebArenaSite,
} from '../../arena/index.js';
import { projectRoot } from '../../util/index.js';
import type { SuiteHost, SuiteWorkerContext, TaskSuite } from '../suite.js';
import { TaskFiles, taskFileTasks } from '../task-files.js';

/** MiniArena's own task files, unless tasks.train / tasks.test name others for its sites. */
const MINIARENA_TASKS = {
  train: path.join(projectRoot, 'tasks', 'miniarena', 'train.json'),
  test: path.join(projectRoot, 'tasks', 'miniarena', 'test.json'),
};

/** One worker's MiniArena, its logins written: a host for any suite whose tasks name MiniArena's placeholders. */
export interface MiniArenaSuiteHost extends SuiteHost {
  /** placeholder → base URL (the same across an outage: the port is kept) */
  placeholders: Record<string, string>;
  /** where the logins are: `<authDir>/.auth/<site>_state.json` */
  authDir: string;
}

export async function startMiniArena(ctx: SuiteWorkerContext): Promise<MiniArenaSuiteHost> {
  // The suite's own seed: the tasks' answers were computed from that data. Fixed secrets let the
  // host come back from an outage accepting the logins written below.
  const secrets = {
    sessionSecret: randomBytes(16).toString('hex'),
    resetToken: randomBytes(24).toString('hex'),
  };
  let arena: MiniArenaHost = await startMiniArenaHost(secrets);
  const { origin, port } = arena;
  // Tasks name Playwright storage states (./.auth/<site>_state.json): write this host's logins there.
  const authDir = path.join(ctx.runDir ?? '.', 'auth', ctx.workerId);
  mkdirSync(path.join(authDir, '.auth'), { recursive: true });
  for (const site of Object.keys(WEBARENA_SITES) as WebArenaSite[]) {
    writeFileSync(
      path.join(authDir, '.auth', `${site}_state.json`),
      JSON.stringify(arena.storageState([site])),
    );
  }
  ctx.log.info(`MiniArena for ${ctx.workerId} at ${origin}`);
  const files = new TaskFiles({ hosts: arena.placeholders, authDir });
  return {
    placeholders: arena.placeholders,
    authDir,
    origins: [origin],
    // its pages run no script: nothing changes them once loaded and no request is pending
    browser: { quietMs: MINIARENA_QUIET_MS },
    task: (ref) => files.task(ref),
    beforeEpisode: () => arena.reset(),
    outage: async (ms) => {
      await arena.close().catch(() => undefined);
      ctx.log.warn(`host-down: MiniArena at ${origin} closed for ${ms} ms`);
      await sleep(ms);
      arena = await startMiniArenaHost({ ...secrets, port });
      ctx.log.info(`host-down: MiniArena at ${origin} is back`);
    },
    close: () => arena.close().catch(() => undefined),
  };
}

export const miniArenaSuite: TaskSuite = {
  name: 'miniarena',
  tasks: (ctx, wants) =>
    taskFileTasks(
      {
        train: ctx.config.tasks.train ?? MINIARENA_TASKS.train,
        test: ctx.config.tasks.test ?? MINIARENA_TASKS.test,
      },
      wants,
    ),
  start: startMiniArena,
};
