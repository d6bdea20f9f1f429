// WebArena-Verified (ServiceNow's audited WebArena) as a suite: its task file, the Hard subset as a
// split (a subset file names the tasks of webarena-verified.json beside it), on WebArena's
// containers at `webarena_host` (or, without one, on each worker's MiniArena: its suite exported in
// this format), scored by its own evaluators over the agent's structured response and the
// episode's network trace; each episode leaves their agent-logs layout under the run's folder
// (agent-logs/<task_id>/). docs/envs.md, "WebArena-Verified".
import path from 'node:path';
import {
  labelKey,
  originsOf,
  type SiteClaims,
  siteClaimOf,
  type TaskLabels,
  type VerifiedTask,
} from '../../envs/index.js';
import { resetSites } from '../env-ctrl.js';
import { startMiniArena } from '../miniarena/index.js';
import type { Split, SuiteHost, SuiteTasks, SuiteWorkerContext, TaskRef, TaskSuite } from '../suite.js';
import { configuredFiles, webArenaHosts } from '../task-files.js';
import { verifiedHooks } from './hooks.js';
import { agentResponseConfig, readVerifiedSplit, verifiedLabels, verifiedTask } from './tasks.js';

export { RESPONSE_FILE, readAgentLogs, readLoggedHosts, TRACE_FILE, writeAgentLogs } from './agent-logs.js';
export { answerError, verifiedDerender, verifiedHooks } from './hooks.js';
export { NetworkTrace } from './network-trace.js';
export { decidingEvaluator, type EvaluatorScore, scoreTask, type TaskScore } from './score.js';
export {
  countVerified,
  isVerifiedFile,
  readVerifiedSplit,
  readVerifiedTasks,
  type VerifiedCounts,
  verifiedTask,
} from './tasks.js';

export const AGENT_LOGS_DIR = 'agent-logs';

/** A split's tasks; a file with problems stops the run before any episode. */
function splitTasks(file: string): VerifiedTask[] {
  const report = readVerifiedSplit(file);
  if (report.issues.length > 0) {
    const shown = report.issues
      .slice(0, 5)
      .map(
        (i) =>
          `  - ${i.file}: ${i.entryLabel}${i.taskId === null ? '' : ` (task_id ${i.taskId})`}: ${i.field} ${i.message}`,
      );
    throw new Error(`task file ${file} has ${report.issues.length} error(s):\n${shown.join('\n')}`);
  }
  return report.tasks;
}

/** Placeholder → base URL for a WebArena host (their __SSH_HOST__ is GitLab's host name). */
export function verifiedHosts(host: string): Map<string, string> {
  return new Map(Object.entries(webArenaHosts(host)));
}

export const webArenaVerifiedSuite: TaskSuite = {
  name: 'webarena-verified',
  tasks(ctx, wants): SuiteTasks {
    const files = configuredFiles(ctx.config.tasks, 'webarena-verified');
    const labels: TaskLabels = new Map();
    // One WebArena for every worker: a mutate task holds its sites alone (site-order.ts). Each
    // worker's own MiniArena is reset before every episode: its tasks claim nothing.
    const shared = ctx.config.webarena_host !== null;
    const claims: SiteClaims = new Map();
    const refs = (split: Split): TaskRef[] => {
      if (!wants(split)) return [];
      const file = path.resolve(files[split]);
      const tasks = splitTasks(file);
      verifiedLabels(file, tasks, labels);
      for (const t of shared ? tasks : [])
        claims.set(
          labelKey(file, String(t.task_id)),
          siteClaimOf(
            { sites: t.sites, eval: null },
            agentResponseConfig(t.eval).expected.task_type === 'mutate',
          ),
        );
      return tasks.map((t) => ({ file, id: String(t.task_id) }));
    };
    const train = refs('train');
    const test = refs('test');
    return {
      train,
      test,
      labels,
      claims,
      describe: `${train.length} train, ${test.length} test WebArena-Verified tasks`,
    };
  },
  async start(ctx: SuiteWorkerContext): Promise<SuiteHost> {
    const host = ctx.config.webarena_host;
    if (host === null) {
      // MiniArena's suite in this format (tti-run tasks export --format verified), on its real pages
      const arena = await startMiniArena(ctx);
      const hosts = new Map(Object.entries(arena.placeholders));
      const parts = verifiedParts(ctx, hosts, arena.authDir);
      return { ...arena, ...parts, browser: { ...arena.browser, ...parts.browser } };
    }
    const hosts = verifiedHosts(host);
    return {
      origins: originsOf(Object.fromEntries(hosts)),
      // where WebArena's logins are kept, as for WebArena's own files
      ...verifiedParts(ctx, hosts, path.join(ctx.runDir ?? '.', 'auth', ctx.workerId)),
      ...(Object.keys(ctx.config.env_ctrl).length > 0
        ? { resetSites: (sites) => resetSites(sites, ctx.config.env_ctrl, ctx.config.env_ctrl_timeout_ms) }
        : {}),
      outage: async () =>
        ctx.log.warn('host-down needs a host the worker runs itself; WebArena is left alone'),
      close: async () => {},
    };
  },
};

/** What the suite adds to a host: its tasks, its hooks (the trace, the answer, the verdict, the logs). */
function verifiedParts(
  ctx: SuiteWorkerContext,
  hosts: ReadonlyMap<string, string>,
  authDir: string,
): Pick<SuiteHost, 'browser' | 'task'> {
  const byFile = new Map<string, Map<string, { task: VerifiedTask; entry: number }>>();
  const all = new Map<string, VerifiedTask>();
  const load = (file: string) => {
    let byId = byFile.get(file);
    if (byId === undefined) {
      byId = new Map(splitTasks(file).map((t, entry) => [String(t.task_id), { task: t, entry }]));
      for (const [id, { task }] of byId) all.set(id, task);
      byFile.set(file, byId);
    }
    return byId;
  };
  const logDir = ctx.runDir === null ? null : path.join(ctx.runDir, AGENT_LOGS_DIR);
  return {
    browser: {
      offers: { stop: true, answer: 'webarena-verified' },
      hooks: verifiedHooks({ tasks: all, hosts, logDir, warn: (m) => ctx.log.warn(m) }),
    },
    task(ref) {
      const found = load(ref.file).get(ref.id);
      if (!found) throw new Error(`no task ${ref.id} in ${ref.file}`);
      return {
        task: verifiedTask(found.task, ref.file, found.entry, hosts, authDir),
        label: { template: `template ${found.task.intent_template_id}`, tier: null },
      };
    },
  };
}
