// `tti-run eval`: one greedy pass of a policy over a task split, run by the same supervisor, env
// and inference workers as training (no learner, no replay), then a summary by tier and template.

import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError, configToYaml, loadConfig } from '../../config/index.js';
import { createLogger, flushLogger, type LogLevel } from '../../log/index.js';
import { CheckpointStore } from '../../model/without-tfjs.js';
import { createRunToken, RunDir, writeFileAtomic } from '../../run/index.js';
import { defaultConfigFile } from '../../util/index.js';
import { defineCommand, exitWith, LOG_LEVELS } from '../command.js';
import { SUITE_OPTIONS, suiteSets } from '../suite-options.js';

export interface EvalArgs {
  checkpoint: string | undefined;
  runDir: string | undefined;
  untrained: boolean;
  config: string | undefined;
  split: 'train' | 'test';
  horizon: number | undefined;
  minTry: number | undefined;
  limit: number | undefined;
  json: boolean;
  outDir: string | undefined;
  set: string[];
  /** configs/presets/NAME.yaml laid over the config (as train's --preset) */
  presets: string[];
  logLevel: LogLevel | undefined;
}

/** The newest checkpoint of a run that passes its checksums. */
function latestCheckpoint(runDir: string): { dir: string; version: number } {
  const store = new CheckpointStore(path.join(runDir, 'checkpoints'), 1_000_000);
  const loaded = store.loadLatest();
  if (loaded === null) {
    throw new ConfigError(
      `no usable checkpoint in ${path.join(runDir, 'checkpoints')}: train first, or pass --untrained`,
    );
  }
  const version = loaded.manifest.policyVersion;
  return { dir: store.pathOf(version), version };
}

export async function evaluate(args: EvalArgs): Promise<number> {
  const sources = [args.checkpoint !== undefined, args.runDir !== undefined, args.untrained].filter(Boolean);
  // A chat policy is its served model: it has no checkpoint to choose, so a --config naming one is enough.
  const chatOnly =
    sources.length === 0 &&
    args.config !== undefined &&
    loadConfig(args.config, args.set, args.presets).policy_lm !== 'tfjs';
  if (sources.length > 1 || (sources.length === 0 && !chatOnly))
    throw new ConfigError(
      'give exactly one of --checkpoint PATH, --run-dir DIR or --untrained (or only a --config whose policy_lm is a chat model)',
    );

  let checkpoint: string | null = null;
  let policyVersion = 0;
  if (args.checkpoint !== undefined) {
    if (!existsSync(args.checkpoint)) throw new ConfigError(`--checkpoint ${args.checkpoint} does not exist`);
    checkpoint = path.resolve(args.checkpoint);
  } else if (args.runDir !== undefined) {
    const latest = latestCheckpoint(args.runDir);
    checkpoint = latest.dir;
    policyVersion = latest.version;
  }
  const runConfig = args.runDir !== undefined ? new RunDir(args.runDir).config : undefined;
  const configFile =
    args.config ?? (runConfig !== undefined && existsSync(runConfig) ? runConfig : defaultConfigFile);
  const base = loadConfig(
    configFile,
    [...args.set, ...(args.logLevel ? [`log_level=${args.logLevel}`] : [])],
    args.presets,
  );
  const config: Config = {
    ...base,
    model: { ...base.model, checkpoint },
    workers: {
      ...base.workers,
      replay: 0,
      learner: 0,
      inference: Math.max(1, base.workers.inference),
      fault: 0,
    },
  };
  const horizon = args.horizon ?? config.eval_horizon;
  const minTry = args.minTry ?? config.eval_min_try;

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = path.resolve(
    args.outDir ??
      (args.runDir !== undefined
        ? path.join(args.runDir, 'evals', stamp)
        : path.join('runs', 'evals', `${args.untrained ? 'untrained' : 'checkpoint'}-${stamp}`)),
  );
  mkdirSync(outDir, { recursive: true });
  const runDir = new RunDir(outDir);
  runDir.create();
  writeFileAtomic(runDir.config, configToYaml(config));
  const token = createRunToken(runDir);
  const log = createLogger({
    name: 'supervisor',
    level: config.log_level,
    runDir: runDir.root,
    consoleLevel: args.json ? 'warn' : 'info',
  });
  const { startSupervisor } = await import('../../actors/supervisor/index.js');
  const supervisor = await startSupervisor({
    config,
    runDir,
    token,
    resume: false,
    log,
    mode: { kind: 'eval', split: args.split, horizon, minTry, limit: args.limit ?? null },
  });
  process.on('SIGINT', () => void supervisor.stop('SIGINT received'));
  process.on('SIGTERM', () => void supervisor.stop('SIGTERM received'));
  const outcome = await supervisor.done;
  await flushLogger(log);
  if (!outcome.completed || outcome.evaluation === null) {
    process.stderr.write(`tti-run eval: the eval did not finish: ${outcome.reason}\n`);
    return outcome.state === 'failed' ? 3 : 1;
  }
  // MiniWoB++ pages that need an action the env lacks are run and scored like the others, and named.
  const { miniwobNeedsOfConfig } = await import('../../suites/index.js');
  const needs = miniwobNeedsOfConfig(config);
  const evaluation = outcome.evaluation;
  const byTask =
    needs === null || evaluation.byTask === undefined
      ? evaluation.byTask
      : Object.fromEntries(
          Object.entries(evaluation.byTask).map(([task, r]) => {
            const n = needs.get(task);
            return [task, { ...r, needs: n?.needs.map((x) => x.need) ?? [], missing: n?.missing ?? [] }];
          }),
        );
  const missingActions =
    needs === null
      ? undefined
      : Object.fromEntries(
          [...needs].filter(([, n]) => n.missing.length > 0).map(([t, n]) => [t, n.missing]),
        );
  const report = {
    ...evaluation,
    ...(byTask === undefined ? {} : { byTask }),
    ...(missingActions === undefined ? {} : { missingActions }),
    split: args.split,
    horizon,
    minTry,
    // a chat policy is its served model (--untrained only says no tfjs checkpoint is loaded)
    policy: config.policy_lm !== 'tfjs' ? config.policy_lm : args.untrained ? 'untrained' : checkpoint,
    policyVersion,
    runDir: runDir.root,
  };
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const lines = [
      `eval of ${report.policy} on ${report.episodes} ${args.split} tasks (horizon ${horizon}, min_try ${minTry}):`,
      `  success ${pct(report.success)} (${report.successes}/${report.episodes}), mean steps ${report.meanSteps.toFixed(1)}`,
      ...(report.lucky > 0
        ? [
            `  not counted: ${report.lucky} answers passed only by a lucky substring (${Object.entries(
              report.luckyByTemplate,
            )
              .map(([t, n]) => `${t} ${n}`)
              .join(', ')})`,
          ]
        : []),
      ...Object.entries(report.byTier).map(
        ([tier, r]) => `  tier ${tier}: ${pct(r.success)} (${r.successes}/${r.episodes})`,
      ),
      ...Object.entries(report.byTask ?? {}).map(
        ([task, r]) =>
          `  ${task}: ${pct(r.success)} (${r.successes}/${r.episodes}), mean reward ${r.meanReward.toFixed(3)}` +
          (missingActions?.[task] ? ` · needs ${missingActions[task].join(', ')}: no action offers it` : ''),
      ),
      `  by template: ${runDir.root}/eval.json`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}

export const evalCommand = defineCommand({
  command: 'eval',
  describe: "evaluate a policy greedily on a task split: a checkpoint, a run's latest, or an untrained one",
  builder: (y) =>
    y
      .option('checkpoint', {
        type: 'string',
        describe: 'a checkpoint folder (RUN_DIR/checkpoints/vNNNNNNNN)',
      })
      .option('run-dir', { type: 'string', describe: 'a training run: evaluate its latest checkpoint' })
      .option('untrained', { type: 'boolean', default: false, describe: 'a freshly initialised policy' })
      .option('config', {
        type: 'string',
        describe: "YAML config (default: the run's, else configs/miniarena.yaml)",
      })
      .option('split', { choices: ['train', 'test'] as const, default: 'test' as const })
      .option('horizon', { type: 'number', describe: 'steps per episode (default: eval_horizon)' })
      .option('min-try', {
        type: 'number',
        describe: 'answers before one is final (default: eval_min_try)',
      })
      .option('search', {
        choices: ['none', 'branch'] as const,
        describe:
          'test-time search: branch goes back to pages the greedy episode found and samples from them, then keeps the finished rollout the policy rates highest (default: eval_search)',
      })
      .option('budget', {
        type: 'number',
        describe: 'env steps a test-time search may spend on a task (default: eval_search_budget)',
      })
      .option('limit', {
        type: 'number',
        describe:
          "a seeded subset of N tasks: the one training's periodic eval uses (eval_tasks = N) in a run " +
          "of the same seed (the config's; --set seed=S to match a run of seed S)",
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the summary as JSON' })
      .option('out-dir', { type: 'string', describe: 'where the eval keeps its logs and episodes' })
      .option('set', { type: 'string', array: true, default: [] as string[], describe: 'key.path=value' })
      .option('preset', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'lay configs/presets/NAME.yaml over the config (as train does)',
      })
      .options(SUITE_OPTIONS)
      .option('log-level', { choices: LOG_LEVELS })
      .example('$0 eval --run-dir runs/quick --json', "the run's latest checkpoint on MiniArena's test split")
      .example(
        '$0 eval --untrained --preset quick --limit 78',
        "a fresh policy on the 78 test tasks the quick preset's evals run (two of each template)",
      )
      .example('$0 eval --run-dir runs/quick --min-try 2', "with TTI's re-check")
      .example(
        '$0 eval --run-dir runs/quick --search branch --budget 60',
        'with test-time search, 60 env steps a task',
      )
      .example(
        '$0 eval --config configs/webarena_eval.yaml --out-dir runs/webarena-eval',
        'a chat model behind vLLM (policy_lm in the config): no checkpoint to choose',
      )
      .example(
        '$0 eval --untrained --suite miniwob --miniwob-dir ~/miniwob-plusplus/miniwob/html --tasks click-button,enter-text --episodes 20 --json',
        'MiniWoB++ tasks, 20 seeds each (docs/miniwob.md)',
      ),
  handler: (argv) =>
    exitWith(() =>
      evaluate({
        checkpoint: argv.checkpoint,
        runDir: argv['run-dir'],
        untrained: argv.untrained,
        config: argv.config,
        split: argv.split,
        horizon: argv.horizon,
        minTry: argv['min-try'],
        limit: argv.limit,
        json: argv.json,
        outDir: argv['out-dir'],
        set: [
          ...argv.set.map(String),
          ...suiteSets(argv),
          // the config validates them, so a bad value is named as a key's
          ...(argv.search === undefined ? [] : [`eval_search=${argv.search}`]),
          ...(argv.budget === undefined ? [] : [`eval_search_budget=${argv.budget}`]),
        ],
        presets: argv.preset.map(String),
        logLevel: argv['log-level'],
      }),
    ),
});
