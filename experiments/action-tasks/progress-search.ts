// Does a search find MiniArena's action tasks? On one train task per template whose verdict reads
// the site's state or the URL (program_html, url_match), a policy (untrained, or a checkpoint)
// spends an env-step budget per task under `branchSearch`, its pages ranked by visits or by a
// general progress measure (the share of the task's words the page and the way there show:
// `taskProgress`), each burst from a page starting with an action no earlier burst from there
// began with, and the state probed on every page as collect.state_probes does (a passing state
// is stopped on; elsewhere no stop is drawn). Successes and the env steps to the first, per task.
// `node dist/experiments/action-tasks/progress-search.js BUDGET [CHECKPOINT|-] [TEMPERATURE] [BURST] [ARMS]`
// (ARMS: visits, progress, each optionally `-url`: going back by URL, collect.search_by_url)
import { closeSlots, type MiniArenaTask, openSlots, readSplit, runOnSlots } from '../../src/arena/index.js';
import { type Observation, ttiActionText } from '../../src/envs/index.js';
import {
  encodeObservation,
  featuresOf,
  loadBackend,
  loadModelCheckpoint,
  type PolicyInput,
  redundantActions,
  seededRandom,
  TfjsPolicy,
  taskProgress,
} from '../../src/model/index.js';
import { actionSignature } from '../../src/model/without-tfjs.js';
import { branchSearch, type CellRank, type Taken } from '../../src/search/index.js';
import { nodeColumns } from '../oracle-demos/demos.js';

interface Outcome {
  taskId: number;
  template: string;
  tier: number;
  arm: string;
  success: boolean;
  /** env steps until the first success (the budget when none) */
  steps: number;
  rollouts: number;
  cells: number;
  deepest: number;
  /** rollouts that went back by URL */
  byUrl: number;
}

const args = process.argv.slice(2);
const budget = Number(args[0] ?? 150);
const checkpoint = args[1] && args[1] !== '-' ? args[1] : null;
const temperature = Number(args[2] ?? 0.1);
const burst = Number(args[3] ?? 5);
const arms = (args[4] ?? 'visits,progress').split(',');
const horizon = 30;
const backend = await loadBackend('auto');
const policy = checkpoint ? loadModelCheckpoint(checkpoint).policy : TfjsPolicy.create({ seed: 1 });
const tasks = readSplit('train')
  .filter((t) => t.eval.eval_types.every((e) => e === 'program_html' || e === 'url_match'))
  .filter((t, i, all) => all.findIndex((u) => u.miniarena.template === t.miniarena.template) === i);

const inputOf = (raw: MiniArenaTask, obs: Observation, taken: readonly Taken[]): PolicyInput => {
  const history = taken.map((t) => ttiActionText(t.reply));
  return {
    intent: raw.intent,
    url: obs.url,
    nodes: nodeColumns(obs),
    history,
    trail: taken.map((t, i) => ({
      url: t.observation.url,
      action: actionSignature(history[i]!, nodeColumns(t.observation)),
    })),
    step: taken.length,
    horizon,
    note: obs.notes.length > 0 ? obs.notes.join('\n') : null,
  };
};

// an arm named `…-url` goes back to pages reached by safe requests with one goto (collect.search_by_url)
const rankOf = (arm: string): CellRank =>
  arm.startsWith('progress') ? { by: 'progress', temperature } : { by: 'visits' };

const slots = await openSlots(2, { split: 'train', env: { actionFormat: 'tti', horizon } });
const started = Date.now();
const jobs = tasks.flatMap((raw) => arms.map((arm) => ({ raw, arm })));
const outcomes = await runOnSlots(
  slots,
  jobs,
  async (slot, { raw, arm }): Promise<Outcome> => {
    const task = slot.tasks.get(String(raw.task_id))!;
    const random = seededRandom(raw.task_id * 7 + 1);
    const out = await branchSearch({
      budget,
      burst,
      horizon,
      random,
      rank: rankOf(arm),
      revisitByUrl: arm.endsWith('-url'),
      start: async () => {
        await slot.host.reset();
        return slot.env.reset(task, { horizon });
      },
      step: (action) => slot.env.step(action),
      act: async (obs, taken, avoid) => {
        const input = inputOf(raw, obs, taken);
        const encoded = encodeObservation(input, { buckets: policy.options.buckets });
        // a state probe (collect.state_probes): a state that passes is stopped on; where it fails
        // no stop is drawn, and a burst avoids the actions earlier bursts from this page began with
        const done = encoded.candidates.find((c) => c.kind === 'answer' && c.source === 'done');
        if (done && (await slot.env.probeStop('Done'))?.success)
          return { reply: `Action: ${done.action}`, policyVersion: 0 };
        const excluded = new Set(redundantActions(encoded.candidates, input));
        encoded.candidates.forEach((c, i) => {
          if (c.kind === 'answer' || avoid?.has(actionSignature(c.action, input.nodes))) excluded.add(i);
        });
        const [decision] = policy.actOn([encoded], [excluded], { greedy: false, temperature: 1, random });
        return {
          reply: decision!.reply,
          policyVersion: 0,
          signature: actionSignature(ttiActionText(decision!.reply), input.nodes),
        };
      },
      progress: (obs, taken) => taskProgress(featuresOf(inputOf(raw, obs, taken))),
    });
    await slot.env.abandon();
    return {
      taskId: raw.task_id,
      template: raw.miniarena.template,
      tier: raw.miniarena.tier,
      arm,
      success: out.success,
      steps: out.stats.envSteps,
      rollouts: out.stats.rollouts,
      cells: out.stats.cells,
      deepest: out.stats.deepest,
      byUrl: out.stats.byUrl,
    };
  },
  (o, done) =>
    process.stdout.write(
      `${done}/${jobs.length} ${o.template} (tier ${o.tier}) ${o.arm}: ${o.success ? 'SUCCESS' : 'none'} after ` +
        `${o.steps} steps, ${o.rollouts} rollouts (${o.byUrl} back by URL), ${o.cells} pages, depth ${o.deepest}\n`,
    ),
);
await closeSlots(slots);
for (const arm of arms) {
  const mine = outcomes.filter((o) => o.arm === arm);
  const won = mine.filter((o) => o.success);
  process.stdout.write(
    `${arm}: ${won.length}/${mine.length} templates: ${won.map((o) => o.template).join(', ') || 'none'}\n`,
  );
}
process.stdout.write(
  `${backend}, ${checkpoint ?? 'untrained policy'}, budget ${budget}, burst ${burst}, progress temperature ` +
    `${temperature}, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
);
process.stdout.write(`RESULT ${JSON.stringify(outcomes)}\n`);
process.exit(0);
