// Does going back find tier-3 successes that episodes from the start do not? On MiniArena's
// tier-3 train tasks, the untrained policy (seed 1, temperature 1) spends the same env-step budget
// per task two ways: TTI's episodes from the start until one succeeds, and `branchSearch`
// (src/search: a Go-Explore archive of the pages found, replayed from the start). Successes and the
// env steps to the first, per task.
// `node dist/experiments/branch-search/search.js BUDGET TASKS_PER_TEMPLATE [HORIZON] [BURST]`
import { closeSlots, type MiniArenaTask, openSlots, readSplit, runOnSlots } from '../../src/arena/index.js';
import type { Observation } from '../../src/envs/index.js';
import { actionOfReply, loadBackend, seededRandom, TfjsPolicy } from '../../src/model/index.js';
import { branchSearch, type Taken } from '../../src/search/index.js';
import { nodeColumns } from '../oracle-demos/demos.js';

interface Outcome {
  taskId: number;
  template: string;
  arm: 'search' | 'episodes';
  success: boolean;
  /** env steps until the first success (the budget when none) */
  steps: number;
  rollouts: number;
  cells?: number;
  deepest?: number;
}

const [budget = 150, perTemplate = 1, horizon = 30, burst = 5] = process.argv.slice(2).map(Number);
const backend = await loadBackend('auto');
const policy = TfjsPolicy.create({ seed: 1 });
const tasks = readSplit('train')
  .filter((t) => t.miniarena.tier === 3)
  .filter(
    (t, i, all) =>
      all.filter((u, j) => j < i && u.miniarena.template === t.miniarena.template).length < perTemplate,
  );

const act =
  (raw: MiniArenaTask, random: () => number) => async (obs: Observation, taken: readonly Taken[]) => {
    const [decision] = policy.act(
      [
        {
          intent: raw.intent,
          url: obs.url,
          nodes: nodeColumns(obs),
          history: taken.map((t) => actionOfReply(t.reply)),
          step: taken.length,
          horizon,
          note: obs.notes.length > 0 ? obs.notes.join('\n') : null,
        },
      ],
      { greedy: false, temperature: 1, random },
    );
    return { reply: decision!.reply, policyVersion: 0 };
  };

const slots = await openSlots(2, { split: 'train', env: { actionFormat: 'tti', horizon } });
const started = Date.now();
const jobs = tasks.flatMap((raw) => (['search', 'episodes'] as const).map((arm) => ({ raw, arm })));
const outcomes = await runOnSlots(
  slots,
  jobs,
  async (slot, { raw, arm }): Promise<Outcome> => {
    const task = slot.tasks.get(String(raw.task_id))!;
    const random = seededRandom(raw.task_id * 7 + (arm === 'search' ? 1 : 2));
    const base = { taskId: raw.task_id, template: raw.miniarena.template, arm };
    const start = async () => {
      await slot.host.reset();
      return slot.env.reset(task, { horizon });
    };
    if (arm === 'search') {
      const out = await branchSearch({
        budget,
        burst,
        horizon,
        random,
        start,
        step: (action) => slot.env.step(action),
        act: act(raw, random),
      });
      await slot.env.abandon();
      return {
        ...base,
        success: out.success,
        steps: out.stats.envSteps,
        rollouts: out.stats.rollouts,
        cells: out.stats.cells,
        deepest: out.stats.deepest,
      };
    }
    const policyAct = act(raw, random);
    let steps = 0;
    let rollouts = 0;
    while (steps < budget) {
      rollouts++;
      let obs: Observation | null = await start();
      const taken: Taken[] = [];
      while (obs !== null && steps < budget) {
        const d = await policyAct(obs, taken);
        taken.push({ observation: obs, ...d });
        const r = await slot.env.step(d.reply);
        steps++;
        if (r.done && r.record?.verdict.success) return { ...base, success: true, steps, rollouts };
        obs = r.observation;
      }
    }
    await slot.env.abandon();
    return { ...base, success: false, steps, rollouts };
  },
  (o, done) =>
    process.stdout.write(
      `${done}/${jobs.length} ${o.template} ${o.arm}: ${o.success ? 'SUCCESS' : 'none'} after ${o.steps} steps, ` +
        `${o.rollouts} rollouts${o.cells === undefined ? '' : `, ${o.cells} pages, depth ${o.deepest}`}\n`,
    ),
);
await closeSlots(slots);
for (const arm of ['search', 'episodes'] as const) {
  const mine = outcomes.filter((o) => o.arm === arm);
  const won = mine.filter((o) => o.success);
  process.stdout.write(
    `${arm}: ${won.length}/${mine.length} tasks, templates ${[...new Set(won.map((o) => o.template))].join(', ') || 'none'}\n`,
  );
}
process.stdout.write(
  `${backend}, budget ${budget} env steps per task, horizon ${horizon}, burst ${burst}, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
);
process.stdout.write(`RESULT ${JSON.stringify(outcomes)}\n`);
process.exit(0);
