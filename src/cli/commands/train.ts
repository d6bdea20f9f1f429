// `tti-run train`: start (or resume) a run's supervisor, in the foreground with a live view, or
// detached once the supervisor is up.

import { spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Config, ConfigError, configToYaml, loadConfig } from '../../config/index.js';
import { createLogger, flushLogger, type LogLevel } from '../../log/index.js';
import type { RunEvent, StatusSnapshot } from '../../protocol/index.js';
import {
  checkRunDirOwnership,
  createRunToken,
  hasArg,
  isAlive,
  processesWhere,
  RunDir,
  readSupervisorInfo,
  selfAndAncestors,
  writeFileAtomic,
} from '../../run/index.js';
import { cliEntry, defaultConfigFile } from '../../util/index.js';
import { defineCommand, exitWith, LOG_LEVELS } from '../command.js';
import { SUITE_OPTIONS, suiteSets } from '../suite-options.js';

export interface TrainArgs {
  config: string | undefined;
  runDir: string;
  detach: boolean;
  resume: boolean;
  set: string[];
  presets: string[];
  logLevel: LogLevel | undefined;
  view: 'live' | 'log' | 'auto';
}

export const EXIT_FAILED_RUN = 3;
const OLD_WORKERS_TIMEOUT_MS = 10000;

/**
 * Workers of a supervisor that was killed exit by themselves within a heartbeat check; a resumed
 * run waits for them (two replays appending to one log would tear it), and kills any that linger.
 */
async function awaitOldWorkers(runDir: RunDir, timeoutMs: number): Promise<number[]> {
  const mine = selfAndAncestors();
  const old = () =>
    processesWhere((a) => a.includes('worker') && hasArg(a, '--run-dir', runDir.root)).filter(
      (p) => !mine.has(p.pid),
    );
  const deadline = Date.now() + timeoutMs;
  while (old().length > 0 && Date.now() < deadline) await sleep(100);
  const left = old().map((p) => p.pid);
  for (const pid of left) {
    try {
      process.kill(-pid, 'SIGKILL'); // a worker leads its process group
    } catch {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  return left;
}

async function prepareRunDir(args: TrainArgs): Promise<{ runDir: RunDir; config: Config; token: string }> {
  const runDir = new RunDir(args.runDir);
  if (args.resume) checkRunDirOwnership(runDir.root);
  if (existsSync(runDir.supervisorInfo)) {
    const info = readSupervisorInfo(runDir);
    if (isAlive(info.pid))
      throw new Error(`a supervisor (pid ${info.pid}) is already running in ${runDir.root}`);
  }
  if (!args.resume && existsSync(runDir.state)) {
    throw new Error(
      `${runDir.root} already holds a run: pass --resume to continue it, or choose another --run-dir`,
    );
  }
  // On resume the run's own resolved config is the base, unless a config file is given; a new run
  // without --config trains on the embedded default.
  const resuming = args.resume && existsSync(runDir.config);
  const configFile = args.config ?? (resuming ? runDir.config : defaultConfigFile);
  const overrides = args.logLevel ? [...args.set, `log_level=${args.logLevel}`] : args.set;
  // A resumed run's config already has its presets applied.
  const config = loadConfig(configFile, overrides, args.config === undefined && resuming ? [] : args.presets);
  if (config.learner.demos !== null) config.learner.demos = await checkedDemos(config.learner.demos);
  if (config.model.prior !== null) config.model.prior = await checkedPrior(config.model.prior);
  runDir.create();
  writeFileAtomic(runDir.config, configToYaml(config));
  const token =
    args.resume && existsSync(runDir.token)
      ? readFileSync(runDir.token, 'utf8').trim()
      : createRunToken(runDir);
  return { runDir, config, token };
}

/**
 * A file the config names (`learner.demos`, `model.prior`), read once before anything starts: a bad
 * one is named here, field and all, not in a worker that would fail on every restart. Absolute, as
 * workers start in other folders. `read` throws `FileError` for a bad file.
 */
function checkedFile(
  key: string,
  file: string,
  read: (file: string) => void,
  FileError: new (...args: never[]) => Error,
): string {
  if (!existsSync(file)) throw new ConfigError(`${key}: ${file} does not exist`);
  try {
    read(file);
  } catch (error) {
    if (error instanceof FileError) throw new ConfigError(`${key}: ${error.message}`);
    throw error;
  }
  return path.resolve(file);
}

async function checkedDemos(file: string): Promise<string> {
  const { readDemoFile, DemoFileError } = await import('../../model/index.js');
  return checkedFile(
    'learner.demos',
    file,
    (f) => {
      const read = readDemoFile(f);
      if (read.trajectories.length === 0)
        throw new ConfigError(
          `learner.demos: ${f} holds no successful demonstration (${read.skipped} left out)`,
        );
    },
    DemoFileError,
  );
}

async function checkedPrior(file: string): Promise<string> {
  const { readPriorFile, PriorFileError } = await import('../../model/index.js');
  return checkedFile('model.prior', file, readPriorFile, PriorFileError);
}

async function detach(args: TrainArgs): Promise<number> {
  const runDir = new RunDir(args.runDir);
  // Before create() makes the folder this user's: a folder someone else controls is refused as it is.
  if (args.resume) checkRunDirOwnership(runDir.root);
  runDir.create();
  const childArgs = [cliEntry, 'train', '--run-dir', runDir.root, '--view', 'log'];
  if (args.config) childArgs.push('--config', args.config);
  if (args.resume) childArgs.push('--resume');
  for (const s of args.set) childArgs.push('--set', s);
  for (const p of args.presets) childArgs.push('--preset', p);
  if (args.logLevel) childArgs.push('--log-level', args.logLevel);
  const out = openSync(`${runDir.logs}/supervisor.out`, 'a');
  const child = spawn(process.execPath, childArgs, { detached: true, stdio: ['ignore', out, out] });
  child.unref();
  const pid = child.pid ?? -1;
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? 1;
  });
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    if (exited !== null) {
      const output = readFileSync(`${runDir.logs}/supervisor.out`, 'utf8')
        .trim()
        .split('\n')
        .slice(-10)
        .join('\n');
      process.stderr.write(`tti-run train: the supervisor exited with code ${exited}:\n${output}\n`);
      return exited === 0 ? 1 : exited;
    }
    if (existsSync(runDir.supervisorInfo)) {
      const info = readSupervisorInfo(runDir);
      if (info.pid === pid) {
        process.stdout.write(
          `supervisor pid ${pid} is running ${info.runId} in ${runDir.root}\n` +
            `  tti-run status --run-dir ${args.runDir}\n  tti-run attach --run-dir ${args.runDir}\n  tti-run stop --run-dir ${args.runDir}\n`,
        );
        return 0;
      }
    }
    await sleep(100);
  }
  process.stderr.write(`tti-run train: the supervisor did not come up within 60 s; see ${runDir.logs}\n`);
  return 1;
}

export async function train(args: TrainArgs): Promise<number> {
  if (args.detach) return detach(args);
  const { runDir, config, token } = await prepareRunDir(args);
  if (args.resume) {
    const killed = await awaitOldWorkers(runDir, OLD_WORKERS_TIMEOUT_MS);
    if (killed.length > 0)
      process.stderr.write(
        `tti-run train: killed ${killed.length} worker(s) of an earlier supervisor: ${killed.join(', ')}\n`,
      );
  }
  const live = args.view === 'live' || (args.view === 'auto' && process.stdout.isTTY === true);
  const log = createLogger({
    name: 'supervisor',
    level: config.log_level,
    runDir: runDir.root,
    // The live view shows events itself; log lines on the terminal would tear it.
    consoleLevel: live ? null : config.log_level,
  });
  const { startSupervisor } = await import('../../actors/supervisor/index.js');
  const supervisor = await startSupervisor({ config, runDir, token, resume: args.resume, log });

  let signals = 0;
  const onSignal = (signal: string) => {
    signals += 1;
    if (signals === 1) void supervisor.stop(`${signal} received`);
    else log.warn('already stopping; waiting for in-flight work (bounded by supervisor.shutdown_timeout_ms)');
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  let timer: NodeJS.Timeout | null = null;
  const { default: logUpdate } = await import('log-update');
  if (live) {
    const { renderRun } = await import('../console-view.js');
    const { strategyBlocks } = await import('../view-strategies.js');
    const { lastResults } = await import('../last-results.js');
    const strategies = strategyBlocks(config);
    const events: RunEvent[] = [];
    supervisor.onEvent((event) => events.push(event));
    let previous: StatusSnapshot | null = null;
    // metrics.jsonl gains a row per finished iteration: read again when the iteration moves on
    let results = lastResults(runDir.root);
    timer = setInterval(() => {
      void supervisor
        .snapshot()
        .then((snapshot) => {
          if (previous !== null && previous.iteration !== snapshot.iteration)
            results = lastResults(runDir.root);
          logUpdate(
            renderRun(snapshot, events, { iterations: config.iterations, previous, strategies, results }),
          );
          previous = snapshot;
        })
        .catch(() => undefined);
    }, 500);
  } else {
    supervisor.onEvent((event) => log.info(`event ${event.kind}: ${event.message}`));
  }

  const outcome = await supervisor.done;
  if (timer) {
    clearInterval(timer);
    logUpdate.done();
    process.stderr.write(`run ${outcome.state}: ${outcome.reason}\n`);
    if (outcome.completed) process.stderr.write(`metrics: ${runDir.root}/metrics.jsonl\n`);
  }
  if (outcome.state === 'failed') log.error(`run failed: ${outcome.reason}`);
  else log.info(`run stopped: ${outcome.reason}`);
  await flushLogger(log);
  return outcome.state === 'failed' ? EXIT_FAILED_RUN : 0;
}

export const trainCommand = defineCommand({
  command: 'train',
  describe: 'start a run (foreground with a live view, or --detach), or --resume one',
  builder: (y) =>
    y
      .option('config', {
        type: 'string',
        describe: 'YAML config file (default: configs/miniarena.yaml)',
      })
      .option('preset', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe:
          'lay configs/presets/NAME.yaml over the config, in order (quick; finetune over it for model.checkpoint)',
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
      .option('listen', {
        type: 'string',
        describe:
          'open the run to workers on other machines at tcp://ADDR:PORT (control at PORT, the other sockets on the ports after it; CURVE, keys checked against the allow-list)',
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
      .example(
        '$0 train --run-dir runs/big --listen tcp://0.0.0.0:5555 --set remote.env=8',
        'eight more env workers join from other machines (tti-run worker --join)',
      )
      .example('$0 train --resume --run-dir runs/demo', 'continue a stopped or crashed run'),
  handler: (argv) =>
    exitWith(() =>
      train({
        config: argv.config,
        runDir: argv['run-dir'],
        detach: argv.detach,
        resume: argv.resume,
        set: [
          ...argv.set.map(String),
          ...suiteSets(argv),
          ...(argv.listen !== undefined ? [`transport.listen=${argv.listen}`] : []),
        ],
        presets: argv.preset.map(String),
        logLevel: argv['log-level'],
        view: argv.view,
      }),
    ),
});
