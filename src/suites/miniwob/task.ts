// A MiniWoB++ episode as a Task: the task's page and the seed that fixes its instance. The intent
// is not known until the page has generated the instance from the seed (core.getUtterance()), so
// its start hook (hooks.ts) fills it in at reset.
import type { Task } from '../../envs/index.js';

/** BrowserGym's MiniWoB++ page size, in CSS pixels. */
export const MINIWOB_VIEWPORT = { width: 332, height: 214 } as const;

/** The pseudo task file every MiniWoB++ task ref names (no file on disk: the suite is the source). */
export const MINIWOB_TASK_FILE_PREFIX = 'miniwob:';

export interface MiniwobEpisodeSpec {
  /** the page's name: html/miniwob/<name>.html */
  name: string;
  seed: number;
}

/** A task id names the page and the seed, e.g. "click-button@17": the same id is the same instance. */
export function miniwobTaskId(spec: MiniwobEpisodeSpec): string {
  return `${spec.name}@${spec.seed}`;
}

export function parseMiniwobTaskId(id: string): MiniwobEpisodeSpec {
  const m = /^([A-Za-z0-9][\w.-]*)@(\d+)$/.exec(id);
  if (m === null)
    throw new Error(`not a MiniWoB++ task id: ${JSON.stringify(id)} (expected "<task>@<seed>")`);
  return { name: m[1]!, seed: Number(m[2]) };
}

/** The page of a task under a served html/ folder (BrowserGym's base_url + subdomain + ".html"). */
export function miniwobTaskUrl(htmlBase: string, name: string): string {
  const base = htmlBase.endsWith('/') ? htmlBase : `${htmlBase}/`;
  return new URL(`miniwob/${encodeURIComponent(name)}.html`, base).href;
}

/** The Task for one episode; its intent is a placeholder until reset reads the utterance. */
export function miniwobTask(htmlBase: string, id: string, taskFile: string): Task {
  const spec = parseMiniwobTaskId(id);
  return {
    kind: 'miniwob',
    // a task page loads only its html/ folder's origin: it may start in a kept context
    confined: true,
    id,
    intent: `(MiniWoB++ ${spec.name}, seed ${spec.seed}: the page gives the instruction)`,
    sites: ['miniwob'],
    startUrls: [miniwobTaskUrl(htmlBase, spec.name)],
    requireLogin: false,
    storageState: null,
    eval: null,
    intentTemplateId: null,
    source: { file: taskFile, entry: 0, format: 'miniwob' },
  };
}
