// Episodes of the policy in MiniArena, outside the actor system: the untrained policy's success
// with temperature sampling (what bootstraps TTI), and a trained policy's greedy success.
// `node dist/experiments/exploration/rollout.js SPLIT LIMIT HORIZON greedy|sample [checkpoint dir] [--held-out]`

import {
  closeSlots,
  type MiniArenaTask,
  openSlots,
  readSplit,
  runOnSlots,
  type Split,
  selectTasks,
} from '../../src/arena/index.js';
import type { BrowserEnvConfig } from '../../src/envs/index.js';
import {
  actionOfReply,
  loadBackend,
  loadModelCheckpoint,
  seededRandom,
  TfjsPolicy,
} from '../../src/model/index.js';
import { nodeColumns } from '../oracle-demos/demos.js';

export interface RolloutEpisode {
  taskId: number;
  template: string;
  tier: number;
  heldOut: boolean;
  success: boolean;
  steps: number;
  endReason: string;
  actions: string[];
}

export interface RolloutOptions {
  split: Split;
  limit: number;
  horizon: number;
  greedy: boolean;
  temperature: number;
  seed: number;
  concurrency: number;
  heldOutOnly?: boolean;
  /** Only these templates. */
  templates?: string[];
  env?: BrowserEnvConfig;
  onEpisode?: (e: RolloutEpisode, done: number, total: number) => void;
}

export async function rollout(policy: TfjsPolicy, o: RolloutOptions): Promise<RolloutEpisode[]> {
  let all = readSplit(o.split);
  if (o.heldOutOnly) all = all.filter((t) => t.miniarena.held_out_template);
  const tasks = selectTasks(all, { limit: o.limit, templates: o.templates });
  const slots = await openSlots(o.concurrency, {
    split: o.split,
    env: { actionFormat: 'tti', horizon: o.horizon, ...o.env },
  });
  try {
    return await runOnSlots(
      slots,
      tasks,
      async (slot, raw: MiniArenaTask): Promise<RolloutEpisode> => {
        const base = {
          taskId: raw.task_id,
          template: raw.miniarena.template,
          tier: raw.miniarena.tier,
          heldOut: raw.miniarena.held_out_template,
        };
        const task = slot.tasks.get(String(raw.task_id));
        if (!task) return { ...base, success: false, steps: 0, endReason: 'missing task', actions: [] };
        const random = seededRandom(o.seed * 100_003 + raw.task_id);
        await slot.host.reset();
        const history: string[] = [];
        try {
          let obs = await slot.env.reset(task, { horizon: o.horizon });
          for (let step = 0; ; step++) {
            const [decision] = policy.act(
              [
                {
                  intent: raw.intent,
                  url: obs.url,
                  nodes: nodeColumns(obs),
                  history: [...history],
                  step,
                  horizon: o.horizon,
                  note: obs.notes.length > 0 ? obs.notes.join('\n') : null,
                },
              ],
              { greedy: o.greedy, temperature: o.temperature, random },
            );
            history.push(actionOfReply(decision!.reply));
            const r = await slot.env.step(decision!.reply);
            if (r.done) {
              return {
                ...base,
                success: r.record?.verdict.success ?? false,
                steps: step + 1,
                endReason: r.record?.endReason ?? '?',
                actions: history,
              };
            }
            obs = r.observation!;
          }
        } catch (e) {
          await slot.env.abandon();
          return {
            ...base,
            success: false,
            steps: history.length,
            endReason: `error: ${String(e)}`,
            actions: history,
          };
        }
      },
      (e, done) => o.onEpisode?.(e, done, tasks.length),
    );
  } finally {
    await closeSlots(slots);
  }
}

export function summarizeRollout(episodes: RolloutEpisode[]): string {
  const rate = (es: RolloutEpisode[]) =>
    `${es.filter((e) => e.success).length}/${es.length} (${((100 * es.filter((e) => e.success).length) / Math.max(1, es.length)).toFixed(1)}%)`;
  const tiers = [1, 2, 3].map((t) => `tier ${t} ${rate(episodes.filter((e) => e.tier === t))}`).join(', ');
  const meanSteps = episodes.reduce((s, e) => s + e.steps, 0) / Math.max(1, episodes.length);
  const solved = [...new Set(episodes.filter((e) => e.success).map((e) => e.template))].join(', ');
  return `success ${rate(episodes)}; ${tiers}; held-out ${rate(episodes.filter((e) => e.heldOut))}; mean steps ${meanSteps.toFixed(1)}; solved templates: ${solved}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [split = 'train', limit = '80', horizon = '30', mode = 'sample', checkpoint] = process.argv.slice(2);
  const backend = await loadBackend('auto');
  const policy =
    checkpoint && checkpoint !== '-'
      ? loadModelCheckpoint(checkpoint).policy
      : TfjsPolicy.create({ seed: 1 });
  const started = Date.now();
  const episodes = await rollout(policy, {
    split: split as Split,
    limit: Number(limit),
    horizon: Number(horizon),
    greedy: mode === 'greedy',
    temperature: 1,
    seed: 1,
    concurrency: 2,
    heldOutOnly: process.argv.includes('--held-out'),
    templates: process.argv
      .find((a) => a.startsWith('--templates='))
      ?.slice('--templates='.length)
      .split(','),
    onEpisode: (e, done, total) => {
      if (e.success || done % 20 === 0)
        process.stdout.write(
          `${done}/${total} ${e.template} ${e.success ? 'SUCCESS' : e.endReason} ${e.steps} steps\n`,
        );
    },
  });
  process.stdout.write(
    `${backend} ${mode} ${split} h=${horizon}: ${summarizeRollout(episodes)} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
  );
  process.stdout.write(`RESULT ${JSON.stringify(episodes.map(({ actions: _a, ...e }) => e))}\n`);
  process.exit(0);
}
