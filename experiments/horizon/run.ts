// TTI's horizon ablation at a fixed budget of env steps: the curriculum against fixed horizons 10
// and 30, then each arm's final policy evaluated with min_try 1 and 2 (TTI's re-check). Each arm is
// a real `tti-run train` run and each eval a real `tti-run eval`, one after the other, so the arms
// compete for nothing but the machine. After `npm run build`:
//   node dist/experiments/horizon/run.js [--preset quick] [--budget-steps 6000] [--eval-limit 78]
//     [--set key=value ...] [--config FILE] [--arms fixed-10 ...] [--runs-dir DIR] [--out DIR]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { comparisonSpec, PlotRenderer, readMetrics } from '../../src/report/index.js';
import { cliEntry } from '../../src/util/index.js';

const ARMS = [
  { label: 'curriculum 10→20→30', schedule: [10, 20, 20, 30] },
  { label: 'fixed 10', schedule: [10] },
  { label: 'fixed 30', schedule: [30] },
];

interface Tally {
  episodes: number;
  successes: number;
  success: number;
}
type EvalJson = Tally & { byTier: Record<string, Tally> };

const { values: opt } = parseArgs({
  options: {
    'budget-steps': { type: 'string', default: '6000' },
    'runs-dir': { type: 'string', default: 'runs/experiments/horizon' },
    out: { type: 'string', default: 'runs/experiments/horizon' },
    preset: { type: 'string', multiple: true, default: [] },
    config: { type: 'string' },
    set: { type: 'string', multiple: true, default: [] },
    'eval-limit': { type: 'string' },
    arms: { type: 'string', multiple: true },
  },
});

function tti(args: string[], quiet: boolean): Promise<{ code: number; stdout: string }> {
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
const pct = (x: Tally) => `${(x.success * 100).toFixed(1)}% (${x.successes}/${x.episodes})`;
const fail = (what: string, code: number): never => {
  process.stderr.write(`horizon: ${what} failed (exit ${code})\n`);
  process.exit(code);
};

const budgetSteps = Number(opt['budget-steps']);
const runsDir = opt['runs-dir'];
const out = opt.out;
const arms = opt.arms ? ARMS.filter((a) => opt.arms!.includes(slug(a.label))) : ARMS;
if (arms.length === 0) {
  process.stderr.write(`horizon: --arms matched none of: ${ARMS.map((a) => slug(a.label)).join(', ')}\n`);
  process.exit(2);
}
mkdirSync(runsDir, { recursive: true });
mkdirSync(out, { recursive: true });
const sets = opt.set.flatMap((s) => ['--set', s]);
const common = [
  ...(opt.config ? ['--config', opt.config] : []),
  ...opt.preset.flatMap((p) => ['--preset', p]),
  ...sets,
];

const results = [];
for (const arm of arms) {
  const runDir = path.join(runsDir, slug(arm.label));
  process.stderr.write(`horizon: training '${arm.label}' in ${runDir}\n`);
  const resume = existsSync(path.join(runDir, 'state.json')) ? ['--resume'] : [];
  const trained = await tti(
    ['train', '--run-dir', runDir, '--view', 'log', '--log-level', 'warn', ...resume, ...common]
      .concat(['--set', `horizon_schedule=[${arm.schedule.join(',')}]`])
      .concat(['--set', `budget_env_steps=${budgetSteps}`, '--set', 'iterations=1000']),
    false,
  );
  if (trained.code !== 0) fail(`training '${arm.label}'`, trained.code);
  const evals: Record<string, EvalJson> = {};
  for (const minTry of [1, 2]) {
    process.stderr.write(`horizon: eval '${arm.label}' with min_try ${minTry}\n`);
    const limit = opt['eval-limit'] ? ['--limit', opt['eval-limit']] : [];
    const evalDir = path.join(runDir, 'evals', `min-try-${minTry}`);
    const evaluated = await tti(
      [
        'eval',
        '--run-dir',
        runDir,
        '--json',
        '--min-try',
        String(minTry),
        ...limit,
        '--out-dir',
        evalDir,
        ...sets,
      ],
      true,
    );
    if (evaluated.code !== 0) fail(`eval of '${arm.label}'`, evaluated.code);
    evals[`minTry${minTry}`] = JSON.parse(evaluated.stdout) as EvalJson;
  }
  const rows = readMetrics(path.join(runDir, 'metrics.jsonl')).rows;
  const envSteps = Number(rows.at(-1)?.totalEnvSteps ?? 0);
  results.push({
    label: arm.label,
    runDir,
    schedule: arm.schedule,
    envSteps,
    iterations: rows.length,
    evals,
  });
}

const tiers = [...new Set(results.flatMap((r) => Object.keys(r.evals.minTry1?.byTier ?? {})))].sort();
const header = `| arm | iterations | env steps | eval success, min_try 1 | eval success, min_try 2 | ${tiers.map((t) => `tier ${t} (min_try 1)`).join(' | ')} |`;
const lines = results.map((r) => {
  const byTier = tiers.map((t) => (r.evals.minTry1!.byTier[t] ? pct(r.evals.minTry1!.byTier[t]) : '-'));
  return `| ${r.label} | ${r.iterations} | ${r.envSteps} | ${pct(r.evals.minTry1!)} | ${pct(r.evals.minTry2!)} | ${byTier.join(' | ')} |`;
});
const table = [header, `|${' --- |'.repeat(5 + tiers.length)}`, ...lines].join('\n');
writeFileSync(path.join(out, 'horizon.md'), `${table}\n`);
const summary = { budgetSteps, presets: opt.preset, set: opt.set, results };
writeFileSync(path.join(out, 'horizon.json'), `${JSON.stringify(summary, null, 2)}\n`);

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
      path.join(out, 'horizon.png'),
    );
  await renderer.render(
    comparisonSpec(runs, 'totalEnvSteps', 'trainSuccess', {
      title: 'Train (collection) success by env steps',
    }),
    path.join(out, 'horizon-train.png'),
  );
} finally {
  await renderer.close();
}
process.stdout.write(`${table}\n\nwritten: ${out}/horizon.{md,json} and its plots\n`);
