// `tti-run worker`: one worker process, as the supervisor spawns it for each role, or one that joins
// a run from another machine (`--join` with a credential from `tti-run credentials issue`). Its
// role's code is imported when it runs, so a worker loads that role's modules only.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROLES } from '../../protocol/index.js';
import { defineCommand, exitWith, LOG_LEVELS } from '../command.js';

export const workerCommand = defineCommand({
  command: 'worker',
  describe:
    'run one worker process: what the supervisor spawns for each role, or (--join) one that joins a run from another machine',
  builder: (y) =>
    y
      .option('role', { choices: ROLES, demandOption: true })
      .option('id', {
        type: 'string',
        describe: 'the worker id (spawned workers; a joining one is its key id)',
      })
      .option('control', { type: 'string', describe: "the supervisor's control endpoint (spawned workers)" })
      .option('join', {
        type: 'string',
        describe: "join a run that listens (train --listen): the supervisor's tcp://HOST:PORT",
      })
      .option('credentials', {
        type: 'string',
        describe: "with --join: this worker's credential file (tti-run credentials issue)",
      })
      .option('host', { type: 'string', describe: "this machine's name in status (default: its hostname)" })
      .option('run-dir', {
        type: 'string',
        describe:
          'where to write logs (a joining worker: its own work folder, default a new one under the temp dir)',
      })
      .option('parent-pid', { type: 'number', describe: 'exit when this process is gone' })
      .option('curve', {
        type: 'boolean',
        default: false,
        describe: 'CURVE even on loopback (the run listens)',
      })
      .option('log-level', { choices: LOG_LEVELS, default: 'info' as const })
      .option('register-timeout', { type: 'number', default: 30000 })
      .check((argv) => {
        if (argv.join !== undefined) {
          if (argv.credentials === undefined) throw new Error('--join needs --credentials FILE');
          if (argv.role !== 'env' && argv.role !== 'inference')
            throw new Error(
              `--join: only env and inference workers join from other machines, not ${argv.role}`,
            );
          return true;
        }
        if (argv.id === undefined || argv.control === undefined)
          throw new Error('a spawned worker needs --id and --control (or --join to join a run)');
        return true;
      })
      .example(
        '$0 worker --role env --id env-0 --control ipc:///abs/runs/demo/sock/control.sock --parent-pid 4242',
        'as the supervisor spawns env-0',
      )
      .example(
        '$0 worker --join tcp://sup.example:5555 --role env --credentials env-r0.json',
        'an env worker on another machine joins a run started with --listen',
      ),
  handler: async (argv) => {
    const { ROLE_MAINS, runWorker, readJoin } = await import('../../actors/roles/index.js');
    let join: ReturnType<typeof readJoin> | null = null;
    if (argv.join !== undefined) {
      const endpoint = argv.join;
      const file = argv.credentials ?? '';
      try {
        join = readJoin(endpoint, file, argv.role);
      } catch (error) {
        const message = (error as Error).message;
        await exitWith(() => {
          process.stderr.write(`tti-run worker: ${message}\n`);
          return 2;
        });
        return;
      }
    }
    await runWorker(
      {
        role: argv.role,
        workerId: join ? join.credential.id : (argv.id ?? ''),
        controlEndpoint: join ? join.endpoint : (argv.control ?? ''),
        // A joining worker keeps what it writes (logs, browser profiles, site logins) in a folder of
        // its own, never in the working directory.
        runDir:
          argv['run-dir'] ?? (join ? mkdtempSync(path.join(tmpdir(), `tti-${join.credential.id}-`)) : null),
        parentPid: argv['parent-pid'] ?? null,
        logLevel: argv['log-level'],
        registerTimeoutMs: argv['register-timeout'],
        join,
        forceCurve: argv.curve,
        ...(argv.host !== undefined ? { hostname: argv.host } : {}),
      },
      ROLE_MAINS[argv.role],
    );
  },
});
