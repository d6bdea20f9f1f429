// `tti-run pretrain --demos oracle`'s recording, per demo, on a small sample of the train tasks
// (`perTemplate` a template, from the generator's pools as pretrain draws them): as it recorded
// before (two browsers, a new context and a host reset for every demo, key-by-key typing) against
// as it records now (one browser per env worker of configs/miniarena.yaml, the config's context
// reuse and typing, a host reset only after a demo that may have changed a site). Both record the
// same tasks; the demos must come out the same (success, and each action by the element it acts
// on: element ids count on in a reused context), or the cut changed them.
import { moreTrainTasks, readSplit, recordOracleDemos, selectTasks } from '../src/arena/index.js';
import { loadConfig } from '../src/config/index.js';
import type { BrowserEnvConfig } from '../src/envs/index.js';
import { DONE_ANSWER } from '../src/model/index.js';
import { defaultConfigFile } from '../src/util/index.js';

export interface OracleRecordingMode {
  concurrency: number;
  reuseContext: boolean;
  typing: NonNullable<BrowserEnvConfig['typing']>;
  resetEvery: boolean;
  wallMs: number;
  perDemoMs: number;
  successes: number;
}

/** `limit`: at most that many of the sample, templates taking turns (a quicker, rougher figure). */
export async function oracleRecordingBench(
  o: { perTemplate?: number; limit?: number; fullTasks?: number } = {},
) {
  const perTemplate = o.perTemplate ?? 2;
  const all = moreTrainTasks(perTemplate, { train: readSplit('train'), test: readSplit('test') });
  const tasks = selectTasks(all, { limit: o.limit });
  const config = loadConfig(defaultConfigFile);
  const record = async (mode: Omit<OracleRecordingMode, 'wallMs' | 'perDemoMs' | 'successes'>) => {
    const started = performance.now();
    const demos = await recordOracleDemos(tasks, {
      horizon: config.eval_horizon,
      emptyAnswer: DONE_ANSWER,
      concurrency: mode.concurrency,
      resetEvery: mode.resetEvery,
      env: { reuseContext: mode.reuseContext, typing: mode.typing },
    });
    const wallMs = performance.now() - started;
    const result: OracleRecordingMode = {
      ...mode,
      wallMs: Math.round(wallMs),
      perDemoMs: Math.round(wallMs / tasks.length),
      successes: demos.filter((d) => d.success).length,
    };
    return { result, demos };
  };
  const before = await record({ concurrency: 2, reuseContext: false, typing: 'keys', resetEvery: true });
  const after = await record({
    concurrency: Math.max(1, config.workers.env),
    reuseContext: config.env.reuse_context,
    typing: config.env.typing,
    resetEvery: false,
  });
  // An action named by the element it acts on, not its id: ids count on in a reused context.
  const named = (s: (typeof before.demos)[number]['steps'][number]) =>
    s.action?.replace(/\[(\d+)\]/, (_, id: string) => {
      const k = s.nodes.ids.indexOf(Number(id));
      return k < 0 ? `[${id}]` : `[${s.nodes.roles[k]} '${s.nodes.names[k]}']`;
    }) ?? null;
  const shape = (ds: typeof before.demos) => ds.map((d) => [d.taskId, d.success, d.steps.map(named)]);
  const differing = before.demos
    .filter((d, i) => JSON.stringify(shape([d])) !== JSON.stringify(shape([after.demos[i]!])))
    .map((d) => d.taskId);
  const fullTasks = o.fullTasks ?? 1651;
  return {
    tasks: tasks.length,
    perTemplate,
    before: before.result,
    after: after.result,
    speedup: Math.round((before.result.perDemoMs / after.result.perDemoMs) * 100) / 100,
    /** the tasks whose demo came out different (success or actions): none, or the cut changed them */
    differing,
    extrapolated: {
      tasks: fullTasks,
      beforeMin: Math.round((before.result.perDemoMs * fullTasks) / 600) / 100,
      afterMin: Math.round((after.result.perDemoMs * fullTasks) / 600) / 100,
    },
  };
}
