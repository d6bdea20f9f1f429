// WebArena's tasks (config_files/test.raw.json and its kin) on WebArena's own containers:
// `webarena_host` names the machine, and each site is on its usual port there. The placeholders of
// the task files (__SHOPPING__, …) become those URLs; requests elsewhere are blocked.
import path from 'node:path';
import { originsOf } from '../../envs/index.js';
import { resetSites } from '../env-ctrl.js';
import type { SuiteHost, SuiteWorkerContext, TaskSuite } from '../suite.js';
import { configuredFiles, TaskFiles, taskFileTasks, webArenaHosts } from '../task-files.js';

/** One worker's side of a suite whose task files run on WebArena's containers at `webarena_host`. */
export async function webArenaHost(ctx: SuiteWorkerContext, suite: string): Promise<SuiteHost> {
  const host = ctx.config.webarena_host;
  if (host === null)
    throw new Error(
      `env.suite ${suite} runs on WebArena's containers: set webarena_host (or use env.suite miniarena, the embedded sites)`,
    );
  const hosts = webArenaHosts(host);
  const files = new TaskFiles({ hosts, authDir: path.join(ctx.runDir ?? '.', 'auth', ctx.workerId) });
  const { env_ctrl: envCtrl, env_ctrl_timeout_ms: resetTimeoutMs } = ctx.config;
  return {
    origins: originsOf(hosts),
    browser: {},
    task: (ref) => files.task(ref),
    ...(Object.keys(envCtrl).length > 0
      ? { resetSites: (sites) => resetSites(sites, envCtrl, resetTimeoutMs) }
      : {}),
    outage: async () => ctx.log.warn('host-down needs a host the worker runs itself; WebArena is left alone'),
    close: async () => {},
  };
}

export const webArenaSuite: TaskSuite = {
  name: 'webarena',
  // One WebArena for every worker: a site-changing task holds its sites alone.
  tasks: (ctx, wants) => taskFileTasks(configuredFiles(ctx.config.tasks, 'webarena'), wants, true),
  start: (ctx) => webArenaHost(ctx, 'webarena'),
};
