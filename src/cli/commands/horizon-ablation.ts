// `tti-run experiment horizon`: TTI's horizon ablation at a fixed budget of env steps — the
// curriculum against fixed horizons 10 and 30 — and, on each arm's final policy, eval with
// min_try 1 against min_try 2 (TTI's re-check). Each arm is a real `tti-run train` run and each
// eval a real `tti-run eval`, one after the other, so the arms compete for nothing but the machine.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../config/index.js';
import { cliEntry } from '../../util/index.js';
import { defineCommand, exitWith } from '../command.js';

export interface ExperimentArgs {
  name: 'horizon';
  runsDir: string;
  out: string;
  budgetSteps: number;
  presets: string[];
  config: string | undefined;
  set: string[];
  evalLimit: number | undefined;
  arms: string[] | undefined;
}

interface Arm {
  label: string;
  schedule: number[];
}

const ARMS: readonly Arm[] = [
  { label: 'curriculum 10→20→30', schedule: [10, 20, 20, 30] },
  { label: 'fixed 10', schedule: [10] },
  { label: 'fixed 30', schedule: [30] },
];

interface EvalJson {
  episodes: number;
  successes: number;
  success: number;
  byTier: Record<string, { episodes: number; successes: number; success: number }>;
}

function run(args: string[], quiet: boolean): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliEntry, ...args], {
      stdio: ['ignore', 'pipe', quiet ? 'ignore' : 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

const slug = (label: string) =>
  label
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function experiment(args: ExperimentArgs): Promise<number> {
  const { comparisonSpec, PlotRenderer, readMetrics } = await import('../../report/index.js');
  if (args.name !== 'horizon') throw new ConfigError(`no experiment '${args.name}' (known: horizon)`);
  const arms = args.arms ? ARMS.filter((a) => args.arms!.includes(slug(a.label))) : ARMS;
  if (arms.length === 0)
    throw new ConfigError(`--arms matched none of: ${ARMS.map((a) => slug(a.label)).join(', ')}`);
  mkdirSync(args.runsDir, { recursive: true });
  mkdirSync(args.out, { recursive: true });
  const results: {
    label: string;
    runDir: string;
    schedule: number[];
    envSteps: number;
    iterations: number;
    evals: Record<string, EvalJson>;
  }[] = [];

  for (const arm of arms) {
    const runDir = path.join(args.runsDir, slug(arm.label));
    const common = [
      ...(args.config ? ['--config', args.config] : []),
      ...args.presets.flatMap((p) => ['--preset', p]),
      ...args.set.flatMap((s) => ['--set', s]),
    ];
    process.stderr.write(`experiment horizon: training '${arm.label}' in ${runDir}\n`);
    const resume = existsSync(path.join(runDir, 'state.json'));
    const trained = await run(
      [
        'train',
        '--run-dir',
        runDir,
        '--view',
        'log',
        '--log-level',
        'warn',
        ...(resume ? ['--resume'] : []),
        ...common,
        '--set',
        `horizon_schedule=[${arm.schedule.join(',')}]`,
        '--set',
        `budget_env_steps=${args.budgetSteps}`,
        '--set',
        'iterations=1000',
      ],
      false,
    );
    if (trained.code !== 0) {
      process.stderr.write(`experiment horizon: '${arm.label}' failed (exit ${trained.code})\n`);
      return trained.code;
    }
    const { rows } = readMetrics(path.join(runDir, 'metrics.jsonl'));
    const evals: Record<string, EvalJson> = {};
    for (const minTry of [1, 2]) {
      process.stderr.write(`experiment horizon: eval '${arm.label}' with min_try ${minTry}\n`);
      const evaluated = await run(
        [
          'eval',
          '--run-dir',
          runDir,
          '--json',
          '--min-try',
          String(minTry),
          ...(args.evalLimit ? ['--limit', String(args.evalLimit)] : []),
          '--out-dir',
          path.join(runDir, 'evals', `min-try-${minTry}`),
          ...args.set.flatMap((s) => ['--set', s]),
        ],
        true,
      );
      if (evaluated.code !== 0) {
        process.stderr.write(`experiment horizon: eval of '${arm.label}' failed (exit ${evaluated.code})\n`);
        return evaluated.code;
      }
      evals[`minTry${minTry}`] = JSON.parse(evaluated.stdout) as EvalJson;
    }
    const last = rows.at(-1);
    results.push({
      label: arm.label,
      runDir,
      schedule: arm.schedule,
      envSteps: Number(last?.totalEnvSteps ?? 0),
      iterations: rows.length,
      evals,
    });
  }

  // The table and the plot.
  const tiers = [...new Set(results.flatMap((r) => Object.keys(r.evals.minTry1?.byTier ?? {})))].sort();
  const header = `| arm | iterations | env steps | eval success, min_try 1 | eval success, min_try 2 | ${tiers.map((t) => `tier ${t} (min_try 1)`).join(' | ')} |`;
  const rule = `|${' --- |'.repeat(5 + tiers.length)}`;
  const lines = results.map((r) => {
    const one = r.evals.minTry1!;
    const two = r.evals.minTry2!;
    const byTier = tiers.map((t) => {
      const x = one.byTier[t];
      return x ? `${pct(x.success)} (${x.successes}/${x.episodes})` : '-';
    });
    return `| ${r.label} | ${r.iterations} | ${r.envSteps} | ${pct(one.success)} (${one.successes}/${one.episodes}) | ${pct(two.success)} (${two.successes}/${two.episodes}) | ${byTier.join(' | ')} |`;
  });
  const table = [header, rule, ...lines].join('\n');
  writeFileSync(path.join(args.out, 'horizon.md'), `${table}\n`);
  writeFileSync(
    path.join(args.out, 'horizon.json'),
    `${JSON.stringify({ budgetSteps: args.budgetSteps, presets: args.presets, set: args.set, results }, null, 2)}\n`,
  );
  const renderer = await PlotRenderer.launch();
  try {
    const runs = results.map((r) => ({
      label: r.label,
      rows: readMetrics(path.join(r.runDir, 'metrics.jsonl')).rows,
    }));
    // The in-run evals (eval_every) draw a curve; with them off, the final evals above are all.
    if (runs.some((r) => r.rows.some((row) => row.eval !== null && row.eval !== undefined)))
      await renderer.render(
        comparisonSpec(runs, 'totalEnvSteps', 'evalSuccess', {
          title: 'Eval success by env steps: horizon curriculum vs fixed',
        }),
        path.join(args.out, 'horizon.png'),
      );
    await renderer.render(
      comparisonSpec(runs, 'totalEnvSteps', 'trainSuccess', {
        title: 'Train (collection) success by env steps',
      }),
      path.join(args.out, 'horizon-train.png'),
    );
  } finally {
    await renderer.close();
  }
  process.stdout.write(`${table}\n\nwritten: ${args.out}/horizon.{md,json} and its plots\n`);
  return 0;
}

export const horizonAblationCommand = defineCommand({
  command: 'experiment <name>',
  describe:
    "TTI's horizon ablation: curriculum vs fixed 10 vs fixed 30 at one env-step budget, eval with min_try 1 vs 2",
  builder: (y) =>
    y
      .positional('name', { choices: ['horizon'] as const, demandOption: true })
      .option('budget-steps', {
        type: 'number',
        default: 6000,
        describe: 'env steps of collection per arm',
      })
      .option('runs-dir', {
        type: 'string',
        default: 'runs/experiments/horizon',
        describe: 'one run per arm',
      })
      .option('out', {
        type: 'string',
        default: 'runs/experiments/horizon',
        describe: 'table (md, json) and plots (png)',
      })
      .option('preset', { type: 'string', array: true, default: [] as string[] })
      .option('config', { type: 'string' })
      .option('set', { type: 'string', array: true, default: [] as string[], describe: 'key.path=value' })
      .option('eval-limit', {
        type: 'number',
        describe: 'evaluate on a seeded subset of N test tasks (as eval --limit)',
      })
      .option('arms', {
        type: 'string',
        array: true,
        describe: 'a subset: curriculum-10-20-30, fixed-10, fixed-30',
      })
      .example(
        '$0 experiment horizon --preset quick --budget-steps 6000',
        'the ablation behind experiments/horizon',
      ),
  handler: (argv) =>
    exitWith(() =>
      experiment({
        name: argv.name,
        runsDir: argv['runs-dir'],
        out: argv.out,
        budgetSteps: argv['budget-steps'],
        presets: argv.preset.map(String),
        config: argv.config,
        set: argv.set.map(String),
        evalLimit: argv['eval-limit'],
        arms: argv.arms?.map(String),
      }),
    ),
});
