// `tti-run worker`: one worker process, as the supervisor spawns it for each role. Its role's code is
// imported when it runs, so a worker loads that role's modules only.

import { ROLES } from '../../protocol/index.js';
import { defineCommand, LOG_LEVELS } from '../command.js';

export const workerCommand = defineCommand({
  command: 'worker',
  describe:
    'run one worker process: what the supervisor spawns for each role (it accepts only workers it started)',
  builder: (y) =>
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
  handler: async (argv) => {
    const { ROLE_MAINS, runWorker } = await import('../../actors/roles/index.js');
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
});
