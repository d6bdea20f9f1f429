// MiniWoB++ as a task suite (docs/miniwob.md): the configured tasks with their seeds, the html/
// folder served on loopback (or a served one), BrowserGym's page (332×214, its flags in the text, no
// stop offered unless configured) and the page's own episode, end and reward.
import { labelKey, refusedUrl, type TaskLabels } from '../../envs/index.js';
import type { PointerNeed, SuiteHost, SuiteWorkerContext, TaskSuite } from '../suite.js';
import { miniwobHooks } from './hooks.js';
import { describeMissing, miniwobTaskNeeds, pointerOffers } from './needs.js';
import { serveMiniwobDir } from './serve.js';
import { MINIWOB_VIEWPORT, miniwobTask, parseMiniwobTaskId } from './task.js';
import { miniwobTaskFile, miniwobTaskIds, resolveMiniwobTasks } from './tasks.js';

/** The quiet window MiniWoB++ pages get: none (the env default is 50 ms; docs/benchmarks.md measures both). */
export const MINIWOB_QUIET_MS = 0;

async function startMiniwob(ctx: SuiteWorkerContext): Promise<SuiteHost> {
  const m = ctx.config.env.miniwob;
  const served =
    m.dir === null
      ? null
      : await serveMiniwobDir(m.dir).then((server) => {
          ctx.log.info(`MiniWoB++ pages of ${m.dir} served for ${ctx.workerId} at ${server.url}`);
          return server;
        });
  const htmlBase = served?.url ?? m.url;
  if (htmlBase === null)
    throw new Error('env.suite is miniwob but neither env.miniwob.url nor env.miniwob.dir is set');
  // BrowserGym points MINIWOB_URL at file:///…/html/; here a local folder is served on loopback
  // (env.miniwob.dir), so the suite needs no scheme beyond the web's and widens none.
  const refused = refusedUrl(htmlBase);
  if (refused !== null)
    throw new Error(
      `env.miniwob.url: ${refused}; for a local html/ folder set env.miniwob.dir (served on loopback)`,
    );
  // The pointer actions each page needs, read from its code once (a local folder only: a served one
  // cannot be read ahead); they are offered on that page's episodes alone.
  const pointers = new Map<string, PointerNeed[]>();
  const pointerOf = (name: string): PointerNeed[] => {
    if (m.dir === null) return [];
    let p = pointers.get(name);
    if (p === undefined) {
      p = pointerOffers(miniwobTaskNeeds(m.dir, [name]).get(name)!);
      pointers.set(name, p);
    }
    return p;
  };
  return {
    origins: [new URL(htmlBase).origin],
    browser: {
      ...(m.viewport === 'browsergym' ? { viewport: MINIWOB_VIEWPORT } : {}),
      // BrowserGym's MiniWoB++ action set has no send_msg_to_user (the page ends each episode) and
      // no nav or tab actions (a task is one page; going back leaves it).
      offers: { stop: m.offer_stop, navigation: m.offer_navigation },
      flags: true,
      // The pages fetch nothing once loaded and say when an episode is ready (WOB_TASK_READY): no
      // quiet window; a load, a navigation an action asks for, and requests in flight are still
      // waited for (session.ts's settle).
      quietMs: MINIWOB_QUIET_MS,
      hooks: miniwobHooks({
        episodeMaxTimeMs: m.episode_max_time_ms,
        removeHumanDisplay: m.remove_human_display,
      }),
    },
    task: (ref) => {
      const { name } = parseMiniwobTaskId(ref.id);
      return {
        task: miniwobTask(htmlBase, ref.id, ref.file),
        label: { template: name, tier: null },
        pointer: pointerOf(name),
      };
    },
    outage: async () =>
      ctx.log.warn('host-down needs the embedded MiniArena; the MiniWoB++ pages are left alone'),
    close: async () => {
      await served?.close();
    },
  };
}

export const miniwobSuite: TaskSuite = {
  name: 'miniwob',
  tasks(ctx) {
    const m = ctx.config.env.miniwob;
    const source = { url: m.url, dir: m.dir };
    const names = resolveMiniwobTasks(source, m.tasks);
    const file = miniwobTaskFile(source);
    const labels: TaskLabels = new Map();
    const refs = (split: 'train' | 'test', seeds: number) =>
      miniwobTaskIds(names, split, seeds).map((id) => {
        labels.set(labelKey(file, id), { template: parseMiniwobTaskId(id).name, tier: null });
        return { file, id };
      });
    const train = refs('train', m.train_seeds);
    const test = refs('test', m.eval_episodes);
    // Pages that need an action the env lacks still run and score (0 unless the page says otherwise);
    // the start of the run names them.
    const missing = m.dir === null ? [] : describeMissing(miniwobTaskNeeds(m.dir, names));
    const describe =
      `MiniWoB++ ${names.length} tasks (${names.join(', ')}) from ${file}: ${train.length} train, ${test.length} test episodes` +
      (missing.length > 0 ? `; ${missing.length} need an action the env lacks: ${missing.join('; ')}` : '');
    return { train, test, labels, describe };
  },
  start: startMiniwob,
};
