// The `tti-run` command line.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { ConfigError } from '../config/index.js';
import { FAULTS, ROLES } from '../protocol/index.js';
import { SUITE_OPTIONS, suiteSets } from './suite-options.js';

// Each command imports its code when it runs: a worker process should not load the browser env,
// MiniArena or the supervisor, nor pay for them at every restart.

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

// Commands end the process explicitly: a socket or timer left by a library must not keep it alive.
async function exitWith(run: () => Promise<number> | number): Promise<void> {
  let code: number;
  try {
    code = await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`tti-run: ${message}\n`);
    code = error instanceof ConfigError ? 2 : 1;
  }
  process.exit(code);
}

await yargs(hideBin(process.argv))
  .scriptName('tti-run')
  .usage('$0 <command> [options]\n\nTrain and evaluate web agents by scaling test-time interaction (TTI).')
  .command(
    'train',
    'start a run (foreground with a live view, or --detach), or --resume one',
    (y) =>
      y
        .option('config', {
          type: 'string',
          describe: 'YAML config file (default: configs/miniarena.yaml)',
        })
        .option('preset', {
          type: 'string',
          array: true,
          default: [] as string[],
          describe: 'lay configs/presets/NAME.yaml over the config (e.g. quick)',
        })
        .option('run-dir', { type: 'string', demandOption: true, describe: 'the run directory' })
        .option('detach', { type: 'boolean', default: false, describe: 'return once the supervisor is up' })
        .option('resume', { type: 'boolean', default: false, describe: 'continue the run in --run-dir' })
        .option('set', {
          type: 'string',
          array: true,
          default: [] as string[],
          describe: 'override a config key: key.path=value',
        })
        .options(SUITE_OPTIONS)
        .option('log-level', { choices: LOG_LEVELS })
        .option('view', {
          choices: ['live', 'log', 'auto'] as const,
          default: 'auto' as const,
          describe: 'console view',
        })
        .example(
          '$0 train --config configs/miniarena.yaml --run-dir runs/demo',
          'train on the embedded MiniArena',
        )
        .example(
          '$0 train --config configs/miniarena.yaml --run-dir runs/demo --detach --set workers.env=4',
          'in the background, 4 env workers',
        )
        .example('$0 train --preset quick --run-dir runs/quick', 'a short run that shows learning on 2 cores')
        .example('$0 train --resume --run-dir runs/demo', 'continue a stopped or crashed run'),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/train.js')).train({
          config: argv.config,
          runDir: argv['run-dir'],
          detach: argv.detach,
          resume: argv.resume,
          set: [...argv.set.map(String), ...suiteSets(argv)],
          presets: argv.preset.map(String),
          logLevel: argv['log-level'],
          view: argv.view,
        }),
      ),
  )
  .command(
    'experiment <name>',
    "TTI's horizon ablation: curriculum vs fixed 10 vs fixed 30 at one env-step budget, eval with min_try 1 vs 2",
    (y) =>
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
    (argv) =>
      exitWith(async () =>
        (await import('./commands/experiment.js')).experiment({
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
  )
  .command(
    'plot',
    "draw a run's learning curve (and its other metrics) from metrics.jsonl as PNGs",
    (y) =>
      y
        .option('run-dir', { type: 'string', demandOption: true })
        .option('out', { type: 'string', describe: 'output folder (default: RUN_DIR/plots)' })
        .option('untrained-eval', {
          type: 'string',
          describe: "an `eval --untrained --json` summary on the run's eval tasks: a reference line",
        })
        .example('$0 plot --run-dir runs/quick --out docs/img', 'learning-curve.png and friends')
        .example(
          '$0 eval --untrained --preset quick --limit 78 --json > untrained.json && $0 plot --run-dir runs/quick --untrained-eval untrained.json',
          'the learning curve with the untrained policy marked',
        ),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/plot.js')).plot({
          runDir: argv['run-dir'],
          out: argv.out,
          untrainedEval: argv['untrained-eval'],
        }),
      ),
  )
  .command(
    'view',
    "browse a run's episodes step by step in a local web page (127.0.0.1); follows a live run",
    (y) =>
      y
        .option('run-dir', {
          type: 'string',
          demandOption: true,
          describe: 'a run directory or an eval --out-dir',
        })
        .option('port', { type: 'number', default: 7900, describe: 'port on 127.0.0.1 (0: any free port)' })
        .option('poll', {
          type: 'number',
          default: 2000,
          describe: "ms between the page's looks for new episodes",
        })
        .example('$0 view --run-dir runs/quick', 'then open http://127.0.0.1:7900/')
        .example('$0 view --run-dir runs/quick --port 0', 'on any free port (printed)'),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/view.js')).view({
          runDir: argv['run-dir'],
          port: argv.port,
          pollMs: argv.poll,
        }),
      ),
  )
  .command(
    'report',
    'write a self-contained HTML report of a run: PNG plots of its metrics and the eval table by tier and template',
    (y) =>
      y
        .option('run-dir', { type: 'string', demandOption: true })
        .option('out', { type: 'string', describe: 'output folder (default: RUN_DIR/report)' })
        .option('untrained-eval', {
          type: 'string',
          describe:
            'an `eval --untrained --json` summary: a reference line on the learning curve, and an "untrained" column beside eval.json\'s',
        })
        .example('$0 report --run-dir runs/quick', 'runs/quick/report/index.html and its PNGs')
        .example(
          '$0 report --run-dir runs/quick --untrained-eval untrained.json',
          'the learning curve with the untrained eval as a dotted rule',
        )
        .example(
          '$0 report --run-dir runs/quick-test --untrained-eval untrained.json',
          'an eval folder (eval --out-dir runs/quick-test): an "untrained" column in its tables',
        ),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/report.js')).report({
          runDir: argv['run-dir'],
          out: argv.out,
          untrainedEval: argv['untrained-eval'],
        }),
      ),
  )
  .command(
    'export-sft',
    "write a run's kept trajectories as chat-format SFT samples (JSON lines, one per step) for an external fine-tuning job",
    (y) =>
      y
        .option('run-dir', { type: 'string', demandOption: true })
        .option('out', { type: 'string', demandOption: true, describe: 'the .jsonl file to write' })
        .option('images', {
          choices: ['files', 'data_url'] as const,
          default: 'files' as const,
          describe: 'screenshots copied next to --out (absolute paths in the samples), or inline data URLs',
        })
        .option('prompt', { type: 'string', describe: "prompt templates (default: the run's chat.prompt)" })
        .example('$0 export-sft --run-dir runs/webarena --out sft/train.jsonl', 'one sample per kept step'),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/export-sft.js')).exportSftCommand({
          runDir: argv['run-dir'],
          out: argv.out,
          images: argv.images,
          prompt: argv.prompt,
        }),
      ),
  )
  .command(
    'eval',
    "evaluate a policy greedily on a task split: a checkpoint, a run's latest, or an untrained one",
    (y) =>
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
        .option('limit', {
          type: 'number',
          describe: "a seeded subset of N tasks: the one training's periodic eval uses (eval_tasks = N)",
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
        .example(
          '$0 eval --run-dir runs/quick --json',
          "the run's latest checkpoint on MiniArena's test split",
        )
        .example(
          '$0 eval --untrained --preset quick --limit 78',
          "a fresh policy on the 78 test tasks the quick preset's evals run (two of each template)",
        )
        .example('$0 eval --run-dir runs/quick --min-try 2', "with TTI's re-check")
        .example(
          '$0 eval --config configs/webarena_eval.yaml --out-dir runs/webarena-eval',
          'a chat model behind vLLM (policy_lm in the config): no checkpoint to choose',
        )
        .example(
          '$0 eval --untrained --suite miniwob --miniwob-dir ~/miniwob-plusplus/miniwob/html --tasks click-button,enter-text --episodes 20 --json',
          'MiniWoB++ tasks, 20 seeds each (docs/miniwob.md)',
        ),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/eval.js')).evaluate({
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
          set: [...argv.set.map(String), ...suiteSets(argv)],
          presets: argv.preset.map(String),
          logLevel: argv['log-level'],
        }),
      ),
  )
  .command(
    'status',
    'print one snapshot of a run',
    (y) =>
      y
        .option('run-dir', { type: 'string', demandOption: true })
        .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
        .option('timeout', { type: 'number', default: 3000, describe: 'ms to wait for the supervisor' })
        .example('$0 status --run-dir runs/demo', 'a table of the run and its workers')
        .example('$0 status --run-dir runs/demo --json | jq .workers', 'JSON'),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/status.js')).status({
          runDir: argv['run-dir'],
          json: argv.json,
          timeoutMs: argv.timeout,
        }),
      ),
  )
  .command(
    'attach',
    'live view of a running run until Ctrl-C (never disturbs it)',
    (y) =>
      y
        .option('run-dir', { type: 'string', demandOption: true })
        .option('interval', { type: 'number', default: 500, describe: 'ms between refreshes' })
        .example('$0 attach --run-dir runs/demo', 'watch workers, progress and rates'),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/attach.js')).attach({ runDir: argv['run-dir'], intervalMs: argv.interval }),
      ),
  )
  .command(
    'stop',
    "stop a run gracefully (needs the run's token)",
    (y) =>
      y
        .option('run-dir', { type: 'string', demandOption: true })
        .option('token-file', { type: 'string', describe: 'the run token (default: RUN_DIR/token)' })
        .option('timeout', { type: 'number', default: 60000, describe: 'ms to wait for the run to end' })
        .example('$0 stop --run-dir runs/demo', 'finish in-flight work, flush, exit'),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/stop.js')).stopRun({
          runDir: argv['run-dir'],
          tokenFile: argv['token-file'],
          timeoutMs: argv.timeout,
        }),
      ),
  )
  .command(
    'inject',
    "inject a fault into a worker (needs the run's token): for tests and chaos",
    (y) =>
      y
        .option('run-dir', { type: 'string', demandOption: true })
        .option('worker', { type: 'string', demandOption: true, describe: 'worker id, e.g. env-0' })
        .option('fault', { choices: FAULTS, demandOption: true })
        .option('token-file', { type: 'string' })
        .example(
          '$0 inject --run-dir runs/demo --worker env-0 --fault crash',
          'crash env-0; the supervisor restarts it',
        ),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/stop.js')).injectFault({
          runDir: argv['run-dir'],
          worker: argv.worker,
          fault: argv.fault,
          tokenFile: argv['token-file'],
        }),
      ),
  )
  .command(
    'chaos',
    'kill random workers of a run every few seconds (and the supervisor once, then resume); print a JSON summary',
    (y) =>
      y
        .option('run-dir', {
          type: 'string',
          demandOption: true,
          describe: 'the run (started if none is running)',
        })
        .option('kill-every', {
          type: 'string',
          default: '5s',
          describe: 'time between kills (500ms, 5s, 1m)',
        })
        .option('duration', {
          type: 'string',
          default: '120s',
          describe: 'how long to kill; then the run finishes',
        })
        .option('kill-supervisor', {
          type: 'boolean',
          default: false,
          describe: 'kill -9 the supervisor once, then `train --resume`',
        })
        .option('supervisor-at', {
          type: 'string',
          describe: 'when to kill the supervisor (default: 40% of --duration)',
        })
        .option('roles', {
          type: 'string',
          array: true,
          default: ['env', 'inference', 'replay', 'learner'] as string[],
          describe: 'roles whose workers may be killed',
        })
        .option('seed', { type: 'number', default: 1, describe: 'which workers die, reproducibly' })
        .option('settle', {
          type: 'string',
          default: '15m',
          describe: 'after the chaos, how long the run may take to finish before it is stopped',
        })
        .option('config', { type: 'string', describe: 'config of a new run (as for train)' })
        .option('preset', { type: 'string', array: true, default: [] as string[] })
        .option('set', { type: 'string', array: true, default: [] as string[], describe: 'key.path=value' })
        .example(
          '$0 chaos --run-dir runs/chaos --kill-every 5s --duration 120s --kill-supervisor',
          'kill a worker every 5 s for 2 min and the supervisor once; exit 0 when nothing was lost',
        ),
    (argv) =>
      exitWith(async () =>
        (await import('./commands/chaos.js')).chaos({
          runDir: argv['run-dir'],
          config: argv.config,
          presets: argv.preset.map(String),
          set: argv.set.map(String),
          killEvery: argv['kill-every'],
          duration: argv.duration,
          killSupervisor: argv['kill-supervisor'],
          supervisorAt: argv['supervisor-at'],
          roles: argv.roles.map(String),
          seed: argv.seed,
          settle: argv.settle,
        }),
      ),
  )
  .command(
    'worker',
    'run one worker process: what the supervisor spawns for each role (it accepts only workers it started)',
    (y) =>
      y
        .option('role', { choices: ROLES, demandOption: true })
        .option('id', { type: 'string', demandOption: true })
        .option('control', {
          type: 'string',
          demandOption: true,
          describe: "the supervisor's control endpoint",
        })
        .option('run-dir', { type: 'string', describe: 'where to write logs' })
        .option('parent-pid', { type: 'number', describe: 'exit when this process is gone' })
        .option('log-level', { choices: LOG_LEVELS, default: 'info' as const })
        .option('register-timeout', { type: 'number', default: 30000 })
        .example(
          '$0 worker --role env --id env-0 --control ipc:///abs/runs/demo/sock/control.sock --parent-pid 4242',
          'as the supervisor spawns env-0',
        ),
    async (argv) => {
      const { ROLE_MAINS, runWorker } = await import('../actors/roles/index.js');
      await runWorker(
        {
          role: argv.role,
          workerId: argv.id,
          controlEndpoint: argv.control,
          runDir: argv['run-dir'] ?? null,
          parentPid: argv['parent-pid'] ?? null,
          logLevel: argv['log-level'],
          registerTimeoutMs: argv['register-timeout'],
        },
        ROLE_MAINS[argv.role],
      );
    },
  )
  .command('tasks', "task files: validate them, rebuild MiniArena's suite", (y) =>
    y
      .command(
        'validate <files..>',
        'check task files (WebArena raw JSON, TTI jsonl, WebVoyager jsonl); exit 1 on errors',
        (v) =>
          v
            .positional('files', { type: 'string', array: true, demandOption: true })
            .option('json', { type: 'boolean', default: false })
            .option('host', {
              type: 'string',
              array: true,
              default: [] as string[],
              describe: 'site=URL for placeholders, e.g. shopping=http://localhost:7770',
            })
            .option('rewrite', {
              type: 'string',
              array: true,
              default: [] as string[],
              describe: 'from=to host rewrite for TTI jsonl',
            })
            .example(
              '$0 tasks validate ../shared/data/webarena/test.raw.json --json',
              'counts by eval type and site, errors',
            )
            .example('$0 tasks validate tasks/miniarena/*.json', "MiniArena's suite"),
        (argv) =>
          exitWith(async () =>
            (await import('./commands/tasks.js')).validateTasks({
              files: (argv.files ?? []).map(String),
              json: argv.json,
              hosts: argv.host.map(String),
              rewrite: argv.rewrite.map(String),
            }),
          ),
      )
      .command(
        'generate',
        "rebuild MiniArena's task suite (deterministic for a seed)",
        (g) =>
          g
            .option('seed', { type: 'number', describe: "data seed (default: the suite's)" })
            .option('dir', { type: 'string', describe: 'output folder (default: tasks/miniarena)' })
            .example('$0 tasks generate', 'rewrite tasks/miniarena/{train,test}.json'),
        (argv) =>
          exitWith(async () =>
            (await import('./commands/tasks.js')).generateTasks({ seed: argv.seed, dir: argv.dir }),
          ),
      )
      .command(
        'check',
        "run MiniArena's oracle on its tasks: every task must be solvable through the env's actions",
        (c) =>
          c
            .option('split', { choices: ['train', 'test', 'all'] as const, default: 'all' as const })
            .option('limit', { type: 'number', describe: 'at most N tasks, spread over the templates' })
            .option('concurrency', {
              type: 'number',
              default: 2,
              describe: 'MiniArena instances and browsers in parallel',
            })
            .option('json', { type: 'boolean', default: false })
            .option('write-lengths', {
              type: 'boolean',
              default: false,
              describe: "record the oracle's step counts as the tasks' minimal lengths (full runs)",
            })
            .option('unmeasured', {
              type: 'boolean',
              default: false,
              describe: 'only tasks without a measured length (after a template change; see tasks generate)',
            })
            .option('min-rate', { type: 'number', default: 0.99, describe: 'exit 1 below this solve rate' })
            .example('$0 tasks check --split test --limit 40 --json', 'a quick sample of every template')
            .example(
              '$0 tasks check --split all --write-lengths',
              'the full suite, recording minimal lengths',
            )
            .example(
              '$0 tasks generate && $0 tasks check --unmeasured --write-lengths',
              'after a template change: measure only the tasks it changed',
            ),
        (argv) =>
          exitWith(async () =>
            (await import('./commands/tasks.js')).checkTasks({
              split: argv.split,
              limit: argv.limit,
              concurrency: argv.concurrency,
              json: argv.json,
              writeLengths: argv['write-lengths'],
              unmeasured: argv.unmeasured,
              minRate: argv['min-rate'],
            }),
          ),
      )
      .demandCommand(1, 'name a tasks command; see tti-run tasks --help'),
  )
  .command('arena', "MiniArena's web sites", (y) =>
    y
      .command(
        'serve',
        'serve the shop, forum and tracker for a person to browse',
        (a) =>
          a
            .option('port', { type: 'number', default: 7770 })
            .option('host', { type: 'string', default: '127.0.0.1', describe: 'interface to listen on' })
            .option('seed', { type: 'number' })
            .example('$0 arena serve --port 7770', 'then open http://127.0.0.1:7770/'),
        (argv) =>
          exitWith(async () =>
            (await import('./commands/arena.js')).serveArena({
              port: argv.port,
              seed: argv.seed,
              host: argv.host,
            }),
          ),
      )
      .demandCommand(1, 'name an arena command; see tti-run arena --help'),
  )
  .demandCommand(1, 'name a command; see --help')
  .strict()
  .help()
  .wrap(Math.min(110, process.stdout.columns ?? 110))
  .parseAsync();
