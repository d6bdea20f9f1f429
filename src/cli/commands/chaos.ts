// `tti-run chaos`: kill random workers of a run (and the supervisor once, then resume; or every
// worker of one host), let it finish, and print a JSON summary of what was killed and whether
// anything was lost or left.

import { ROLES, type Role } from '../../protocol/index.js';
import { defineCommand, exitWith } from '../command.js';

export interface ChaosArgs {
  runDir: string;
  config: string | undefined;
  presets: string[];
  set: string[];
  killEvery: string;
  duration: string;
  killSupervisor: boolean;
  supervisorAt: string | undefined;
  roles: string[];
  cutHost: string | undefined;
  cutAt: string | undefined;
  seed: number;
  settle: string;
}

export async function chaos(args: ChaosArgs): Promise<number> {
  const { parseDuration, runChaos } = await import('../../chaos/index.js');
  const roles = args.roles.map((r) => {
    if (!(ROLES as readonly string[]).includes(r))
      throw new Error(`--roles: '${r}' is not one of ${ROLES.join(', ')}`);
    return r as Role;
  });
  const durationMs = parseDuration(args.duration);
  const trainArgs: string[] = [];
  if (args.config) trainArgs.push('--config', args.config);
  for (const p of args.presets) trainArgs.push('--preset', p);
  for (const s of args.set) trainArgs.push('--set', s);
  const summary = await runChaos({
    runDir: args.runDir,
    trainArgs,
    killEveryMs: parseDuration(args.killEvery),
    durationMs,
    // By default the supervisor goes down a little before the middle of the chaos window.
    supervisorAtMs: args.killSupervisor
      ? args.supervisorAt !== undefined
        ? parseDuration(args.supervisorAt)
        : Math.round(durationMs * 0.4)
      : null,
    roles,
    // By default the host goes at the middle of the chaos window.
    cutHost:
      args.cutHost !== undefined
        ? {
            host: args.cutHost,
            atMs: args.cutAt !== undefined ? parseDuration(args.cutAt) : Math.round(durationMs * 0.5),
          }
        : null,
    seed: args.seed,
    settleMs: parseDuration(args.settle),
    say: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  return summary.ok ? 0 : 1;
}

export const chaosCommand = defineCommand({
  command: 'chaos',
  describe:
    'kill random workers of a run every few seconds (and the supervisor once, then resume); print a JSON summary',
  builder: (y) =>
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
      .option('cut-host', {
        type: 'string',
        describe:
          "stop every worker of this host (its name in status) at once: SIGKILL spawned ones, the 'hang' fault for remote ones",
      })
      .option('cut-at', {
        type: 'string',
        describe: 'when to cut the host (default: 50% of --duration)',
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
  handler: (argv) =>
    exitWith(() =>
      chaos({
        runDir: argv['run-dir'],
        config: argv.config,
        presets: argv.preset.map(String),
        set: argv.set.map(String),
        killEvery: argv['kill-every'],
        duration: argv.duration,
        killSupervisor: argv['kill-supervisor'],
        supervisorAt: argv['supervisor-at'],
        roles: argv.roles.map(String),
        cutHost: argv['cut-host'],
        cutAt: argv['cut-at'],
        seed: argv.seed,
        settle: argv.settle,
      }),
    ),
});
