// The context an env worker hands its suite's `start`: the run's settings and log, and two helpers a
// suite module of one's own can use without importing anything of tti's.
import { pageVerdict, type Task } from '../envs/index.js';
import type { PageTask, SuiteContext, SuiteWorkerContext } from './suite.js';

export function makePageTask(t: PageTask): Task {
  return {
    kind: 'page',
    id: t.id,
    intent: t.intent,
    sites: t.sites ?? [],
    startUrls: t.startUrls,
    requireLogin: false,
    storageState: null,
    eval: null,
    intentTemplateId: null,
    source: { file: t.source, entry: 0, format: 'suite' },
  };
}

export function suiteWorkerContext(
  base: SuiteContext & { workerId: string; runDir: string | null },
): SuiteWorkerContext {
  return { ...base, makeTask: makePageTask, pageVerdict };
}
