// `tti-run pretrain`: behaviour cloning on demonstrations (MiniArena's oracle, a trajectories or SFT
// file, a run's kept trajectories), a checkpoint per epoch in RUN_DIR/checkpoints, where `tti-run
// eval --run-dir` and `tti-run train --set model.checkpoint=…` find it. Rerun, it resumes.

import { existsSync, mkdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import type { MiniArenaTask, OracleDemo } from '../../arena/index.js';
import { ConfigError } from '../../config/index.js';
import type { TrajectoryForTraining } from '../../model/index.js';
import { writeFileAtomic } from '../../run/index.js';
import { defineCommand, exitWith } from '../command.js';
import { ProgressBar } from '../progress.js';

type Split = 'train' | 'test' | 'all';
const BACKENDS = ['auto', 'gpu', 'node', 'wasm', 'cpu'] as const;

export interface PretrainArgs {
  demos: string;
  /** oracle only: which tasks to record */
  split: Split | undefined;
  limit: number | undefined;
  templates: string[] | undefined;
  /** oracle, train split: record up to N tasks a template, more than the task files hold
   *  (default DEFAULT_TRAIN_PER_TEMPLATE there; the files' own count gives the files alone) */
  trainPerTemplate: number | undefined;
  /** oracle: browsers recording side by side (default: the config's workers.env) */
  concurrency: number | undefined;
  /** oracle: the run config whose workers.env and env settings the recording follows */
  config: string | undefined;
  set: string[];
  epochs: number;
  batchSize: number;
  wordDropout: number;
  skipOverwrittenEdits: boolean;
  lr: number;
  seed: number;
  horizon: number;
  backend: (typeof BACKENDS)[number];
  runDir: string;
  /** fit the untrained policy's prior to the demos (RUN_DIR/prior.json, for model.prior) instead of BC */
  priorOnly: boolean;
}

/** Demonstrations ready for BC, and what became of the rest. */
interface Demos {
  source: string;
  trajectories: TrajectoryForTraining[];
  /** records left out: failed solves, failed or unkept trajectories */
  failed: number;
  steps: number;
  aligned: number;
  uncovered: number;
  misses: string[];
}

const DEMOS_FILE = 'demos.jsonl';

/**
 * Oracle train tasks a template when none is asked for: BC's seen-template test success grew with
 * every doubling of the demos (docs/model.md), and 66 gives 1,651 tasks where the files hold 712.
 */
export const DEFAULT_TRAIN_PER_TEMPLATE = 66;

/** The oracle demos already in the cache; a torn last line (a killed recording) is cut. */
function readDemoCache(file: string): OracleDemo[] {
  if (!existsSync(file)) return [];
  const raw = readFileSync(file, 'utf8');
  const out: OracleDemo[] = [];
  let good = 0;
  for (const line of raw.split('\n')) {
    const end = good + line.length + 1;
    if (end > raw.length) break; // no newline yet: not whole
    if (line.trim()) {
      try {
        out.push(JSON.parse(line) as OracleDemo);
      } catch {
        break;
      }
    }
    good = end;
  }
  if (good < raw.length) truncateSync(file, Buffer.byteLength(raw.slice(0, good)));
  return out;
}

async function oracleDemos(
  args: PretrainArgs,
  bar: ProgressBar,
): Promise<{ demos: OracleDemo[]; tasks: MiniArenaTask[] }> {
  const { moreTrainTasks, readSplit, recordOracleDemos, selectTasks, TEMPLATES } = await import(
    '../../arena/index.js'
  );
  const { DONE_ANSWER } = await import('../../model/index.js');
  const known = new Set(TEMPLATES.map((t) => t.key));
  const unknown = (args.templates ?? []).filter((t) => !known.has(t));
  if (unknown.length > 0) throw new ConfigError(`--templates: no MiniArena template ${unknown.join(', ')}`);
  const perTemplate =
    args.trainPerTemplate ?? ((args.split ?? 'train') === 'train' ? DEFAULT_TRAIN_PER_TEMPLATE : undefined);
  const all =
    perTemplate === undefined
      ? readSplit(args.split ?? 'train')
      : moreTrainTasks(perTemplate, { train: readSplit('train'), test: readSplit('test') });
  const tasks = selectTasks(all, {
    limit: args.limit,
    templates: args.templates,
  });
  mkdirSync(args.runDir, { recursive: true });
  const cache = path.join(args.runDir, DEMOS_FILE);
  const recorded = new Map(readDemoCache(cache).map((d) => [d.taskId, d]));
  const todo = tasks.filter((t) => !recorded.has(t.task_id));
  if (todo.length > 0) {
    process.stdout.write(
      `recording the oracle on ${todo.length} ${args.split ?? 'train'} tasks (${tasks.length - todo.length} already in ${cache})\n`,
    );
    const { appendFileSync } = await import('node:fs');
    const started = Date.now();
    let failures = 0;
    bar.start(todo.length, 'oracle');
    // As a run's env workers would: one browser each, with the config's context reuse and typing.
    const { loadConfig } = await import('../../config/index.js');
    const { defaultConfigFile } = await import('../../util/index.js');
    const config = loadConfig(args.config ?? defaultConfigFile, args.set);
    const concurrency = args.concurrency ?? Math.max(1, config.workers.env);
    process.stdout.write(
      `${concurrency} browser(s) side by side${config.env.reuse_context ? ', contexts reused' : ''}\n`,
    );
    await recordOracleDemos(todo, {
      horizon: args.horizon,
      emptyAnswer: DONE_ANSWER,
      concurrency,
      env: { reuseContext: config.env.reuse_context, typing: config.env.typing },
      onDemo: (d, done) => {
        // one write per demo: a killed recording loses at most the line being written
        appendFileSync(cache, `${JSON.stringify(d)}\n`);
        recorded.set(d.taskId, d);
        if (!d.success) failures += 1;
        bar.update(done, failures > 0 ? `${failures} failed` : '');
        if (!bar.interactive && (done % 20 === 0 || done === todo.length))
          process.stdout.write(
            `oracle ${done}/${todo.length} (${failures} failed) ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
          );
      },
    });
    bar.stop();
  }
  return { demos: tasks.map((t) => recorded.get(t.task_id)!), tasks };
}

async function gatherDemos(args: PretrainArgs, bar: ProgressBar): Promise<Demos> {
  const { alignAnswers, readDemoFile, DemoFileError, withFreshColumns } = await import(
    '../../model/index.js'
  );
  const raw: { trajectory: TrajectoryForTraining; passes?: (answer: string) => Promise<boolean> }[] = [];
  let failed = 0;
  let source: string;
  if (args.demos === 'oracle') {
    const { answerCheck } = await import('../../arena/index.js');
    const { demos, tasks } = await oracleDemos(args, bar);
    const byId = new Map(tasks.map((t) => [t.task_id, t]));
    for (const d of demos) {
      if (!d.success) failed += 1;
      // a cache recorded before the env marked appeared nodes gets them as a demo file does
      else
        raw.push({
          trajectory: { ...d, steps: withFreshColumns(d.steps) },
          passes: answerCheck(byId.get(d.taskId)!) ?? undefined,
        });
    }
    source = `MiniArena's oracle on ${demos.length} ${args.split ?? 'train'} tasks (${path.join(args.runDir, DEMOS_FILE)})`;
  } else {
    if (
      args.split !== undefined ||
      args.limit !== undefined ||
      args.templates !== undefined ||
      args.trainPerTemplate !== undefined
    )
      throw new ConfigError(
        '--split, --limit, --templates and --train-per-template choose oracle tasks: use them with --demos oracle',
      );
    if (!existsSync(args.demos)) throw new ConfigError(`--demos ${args.demos} does not exist`);
    if (statSync(args.demos).isDirectory()) {
      const replay = path.join(args.demos, 'replay');
      if (!existsSync(replay))
        throw new ConfigError(
          `--demos ${args.demos} has no replay/ folder: is it a run directory of tti-run train?`,
        );
      if (path.resolve(args.demos) === path.resolve(args.runDir))
        throw new ConfigError('--demos and --run-dir are the same run: pretrain into a new --run-dir');
      const { readReplayLog } = await import('../../replay/index.js');
      for (const t of readReplayLog(replay)) {
        if (t.reward > 0) raw.push({ trajectory: t });
        else failed += 1;
      }
      source = `the kept trajectories of ${args.demos}`;
    } else {
      try {
        const file = readDemoFile(args.demos, args.horizon);
        for (const t of file.trajectories) raw.push({ trajectory: t });
        failed = file.skipped;
      } catch (error) {
        if (error instanceof DemoFileError) throw new ConfigError(error.message);
        throw error;
      }
      source = args.demos;
    }
  }
  const demos: Demos = { source, trajectories: [], failed, steps: 0, aligned: 0, uncovered: 0, misses: [] };
  for (const r of raw) {
    const a = await alignAnswers(r.trajectory, r.passes);
    demos.trajectories.push(a.trajectory);
    demos.steps += a.steps;
    demos.aligned += a.aligned;
    demos.uncovered += a.uncovered;
    demos.misses.push(...a.misses.slice(0, Math.max(0, 5 - demos.misses.length)));
  }
  return demos;
}

export async function pretrainRun(args: PretrainArgs): Promise<number> {
  for (const [name, v] of [
    ['--epochs', args.epochs],
    ['--batch-size', args.batchSize],
    ['--concurrency', args.concurrency ?? 1],
    ['--horizon', args.horizon],
  ] as const)
    if (!Number.isInteger(v) || v < 1) throw new ConfigError(`${name} must be a whole number ≥ 1, got ${v}`);
  if (!(args.lr > 0)) throw new ConfigError(`--lr must be positive, got ${args.lr}`);
  if (args.limit !== undefined && (!Number.isInteger(args.limit) || args.limit < 1))
    throw new ConfigError(`--limit must be a whole number ≥ 1, got ${args.limit}`);
  if (args.trainPerTemplate !== undefined) {
    if (!Number.isInteger(args.trainPerTemplate) || args.trainPerTemplate < 1)
      throw new ConfigError(`--train-per-template must be a whole number ≥ 1, got ${args.trainPerTemplate}`);
    if ((args.split ?? 'train') !== 'train')
      throw new ConfigError('--train-per-template adds train tasks: use it with --split train');
  }
  const bar = new ProgressBar();
  // every demo is read and checked before anything is written for training
  const demos = await gatherDemos(args, bar);
  if (demos.trajectories.length === 0)
    throw new ConfigError(
      `no successful demonstration in ${demos.source} (${demos.failed} failed or unkept)`,
    );
  const covered = demos.steps - demos.uncovered;
  process.stdout.write(
    `demos: ${demos.trajectories.length} trajectories, ${demos.steps} steps from ${demos.source}; ${demos.failed} left out (failed)\n` +
      `coverage: ${covered}/${demos.steps} steps are among the policy's actions (${((100 * covered) / demos.steps).toFixed(1)}%), ` +
      `${demos.aligned} answers aligned to a passing one` +
      (demos.uncovered > 0
        ? `; not covered, e.g. ${demos.misses.map((m) => m.slice(0, 60)).join(' | ')}`
        : '') +
      '\n',
  );

  if (args.priorOnly) return writePrior(args, demos);
  const { CheckpointStore, loadBackend, pretrain } = await import('../../model/index.js');
  const backend = await loadBackend(args.backend, (m) => process.stdout.write(`${m}\n`));
  process.stdout.write(`backend: ${backend}\n`);
  mkdirSync(args.runDir, { recursive: true });
  const store = new CheckpointStore(path.join(args.runDir, 'checkpoints'), 3);
  const report = await pretrain(demos.trajectories, {
    epochs: args.epochs,
    batchSize: args.batchSize,
    wordDropout: args.wordDropout,
    skipOverwrittenEdits: args.skipOverwrittenEdits,
    learningRate: args.lr,
    clipNorm: 1,
    seed: args.seed,
    store,
    log: (m) => process.stdout.write(`${m}\n`),
    onEpochStart: (epoch, updates) => bar.start(updates, `epoch ${epoch}/${args.epochs}`),
    onUpdate: (update, loss) => bar.update(update, `loss ${loss.toFixed(3)}`),
    onEpoch: (epoch, r) => {
      bar.stop();
      process.stdout.write(
        `epoch ${epoch}/${args.epochs}: loss ${r.loss.toFixed(4)}, ${r.samplesPerSec.toFixed(0)} samples/s, ${r.seconds.toFixed(1)} s\n`,
      );
    },
  });
  const summary = {
    source: demos.source,
    leftOut: demos.failed,
    aligned: demos.aligned,
    uncovered: demos.uncovered,
    backend,
    epochs: args.epochs,
    batchSize: args.batchSize,
    learningRate: args.lr,
    seed: args.seed,
    ...report,
  };
  writeFileAtomic(path.join(args.runDir, 'pretrain.json'), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(
    (report.epochsTrained === 0 ? `already trained ${args.epochs} epochs: nothing to do\n` : '') +
      `checkpoint ${report.checkpoint} (${report.parameters} parameters, ${report.skipped} steps skipped by BC` +
      `${report.overwritten > 0 ? `, ${report.overwritten} edits typed over later not imitated` : ''})\n` +
      `next: tti-run eval --run-dir ${args.runDir}   or   tti-run train --set model.checkpoint=${report.checkpoint}\n`,
  );
  return 0;
}

/** `--prior-only`: the prior fitted to the demos, written where `model.prior` can name it. */
async function writePrior(args: PretrainArgs, demos: Demos): Promise<number> {
  const { fitPriorToDemos } = await import('../../model/index.js');
  const fit = fitPriorToDemos(demos.trajectories, { skipOverwrittenEdits: args.skipOverwrittenEdits });
  mkdirSync(args.runDir, { recursive: true });
  const file = path.join(args.runDir, 'prior.json');
  const rounded = (weights: Record<string, number>) =>
    Object.fromEntries(Object.entries(weights).map(([k, v]) => [k, Number(v.toFixed(4))]));
  writeFileAtomic(
    file,
    `${JSON.stringify({ kindWeights: rounded(fit.prior.kindWeights), factWeights: rounded(fit.prior.factWeights) }, null, 2)}\n`,
  );
  process.stdout.write(
    `prior fitted on ${fit.steps} steps (${fit.skipped} not among the policy's actions): mean log-likelihood of the demonstrated action ${fit.before.toFixed(3)} (uniform) → ${fit.after.toFixed(3)}\n` +
      `wrote ${file}\nnext: tti-run train --set model.prior=${file}\n`,
  );
  return 0;
}

export const pretrainCommand = defineCommand({
  command: 'pretrain',
  describe:
    "behaviour cloning on demonstrations (MiniArena's oracle, a trajectories or SFT file, a run's kept trajectories) into a checkpoint",
  builder: (y) =>
    y
      .option('demos', {
        type: 'string',
        demandOption: true,
        describe:
          "'oracle' (record MiniArena's oracle, cached in RUN_DIR/demos.jsonl), a .jsonl file (trajectories or export-sft samples), or a run directory (its kept trajectories)",
      })
      .option('split', {
        choices: ['train', 'test', 'all'] as const,
        describe: 'oracle: the tasks to record (default train)',
      })
      .option('limit', { type: 'number', describe: 'oracle: at most N tasks, templates taking turns' })
      .option('templates', { type: 'string', array: true, describe: 'oracle: only these templates' })
      .option('train-per-template', {
        type: 'number',
        describe: `oracle, train split: up to N tasks a template, the task files' and more from the generator's pools (never a test task); default ${DEFAULT_TRAIN_PER_TEMPLATE}, 22 for the files alone`,
      })
      .option('concurrency', {
        type: 'number',
        describe: "oracle: browsers recording side by side (default: the config's workers.env)",
      })
      .option('config', {
        type: 'string',
        describe:
          'oracle: the run config whose workers.env, env.reuse_context and env.typing the recording follows (default: configs/miniarena.yaml)',
      })
      .option('set', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'oracle: override a key of that config: key.path=value',
      })
      .option('epochs', { type: 'number', default: 8 })
      .option('batch-size', { type: 'number', default: 32, describe: 'steps per update' })
      .option('word-dropout', {
        type: 'number',
        default: 0.1,
        describe: 'share of words left out of each step while training (0 turns it off)',
      })
      .option('skip-overwritten-edits', {
        type: 'boolean',
        default: true,
        describe:
          'leave out edits a demonstration types over later on the same page (--no-skip-overwritten-edits imitates every step)',
      })
      .option('lr', { type: 'number', default: 3e-3, describe: "Adam's learning rate" })
      .option('seed', { type: 'number', default: 1, describe: 'initial weights and data order' })
      .option('horizon', {
        type: 'number',
        default: 30,
        describe: 'the episode horizon the policy is shown (eval_horizon)',
      })
      .option('backend', { choices: BACKENDS, default: 'auto' as const, describe: 'TensorFlow.js backend' })
      .option('run-dir', {
        type: 'string',
        demandOption: true,
        describe: 'where checkpoints (and oracle demos) go',
      })
      .option('prior-only', {
        type: 'boolean',
        default: false,
        describe:
          "fit the untrained policy's prior to the demos instead of training (a few dozen numbers: how often each action kind is taken, how much each general fact counts), written to RUN_DIR/prior.json for model.prior",
      })
      .example(
        '$0 pretrain --demos oracle --split train --run-dir runs/bc',
        "imitate the oracle on MiniArena's train tasks",
      )
      .example('$0 eval --run-dir runs/bc --split test --json', 'then evaluate what it learned')
      .example(
        '$0 pretrain --demos sft/train.jsonl --epochs 5 --run-dir runs/sft-bc',
        'from an export-sft file',
      )
      .example('$0 pretrain --demos runs/quick --run-dir runs/from-quick', "from a run's kept trajectories")
      .example(
        '$0 pretrain --demos oracle --split train --prior-only --run-dir runs/prior',
        'a prior for a fresh policy (tti-run train --set model.prior=runs/prior/prior.json)',
      ),
  handler: (argv) =>
    exitWith(() =>
      pretrainRun({
        demos: argv.demos,
        split: argv.split,
        limit: argv.limit,
        templates: argv.templates?.map(String),
        trainPerTemplate: argv['train-per-template'],
        concurrency: argv.concurrency,
        config: argv.config,
        set: argv.set.map(String),
        epochs: argv.epochs,
        batchSize: argv['batch-size'],
        wordDropout: argv['word-dropout'],
        skipOverwrittenEdits: argv['skip-overwritten-edits'],
        lr: argv.lr,
        seed: argv.seed,
        horizon: argv.horizon,
        backend: argv.backend,
        runDir: argv['run-dir'],
        priorOnly: argv['prior-only'],
      }),
    ),
});
