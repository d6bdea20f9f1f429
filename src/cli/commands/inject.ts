// `tti-run inject`: a fault into one worker of a live run (tests, chaos), which carries the run's token.
import { FAULTS, type Fault } from '../../protocol/index.js';
import { RunDir } from '../../run/index.js';
import { defineCommand, exitWith } from '../command.js';
import { EXIT_REFUSED, send, token } from '../control-request.js';

export async function injectFault(args: {
  runDir: string;
  worker: string;
  fault: Fault;
  tokenFile: string | undefined;
}): Promise<number> {
  const runDir = new RunDir(args.runDir);
  const reply = await send(runDir, {
    type: 'inject_fault',
    token: token(runDir, args.tokenFile),
    workerId: args.worker,
    fault: args.fault,
  });
  if (reply === null) {
    process.stderr.write('tti-run inject: the supervisor did not answer\n');
    return 1;
  }
  (reply.ok ? process.stdout : process.stderr).write(`${reply.message}\n`);
  return reply.ok ? 0 : EXIT_REFUSED;
}

export const injectCommand = defineCommand({
  command: 'inject',
  describe: "inject a fault into a worker (needs the run's token): for tests and chaos",
  builder: (y) =>
    y
      .option('run-dir', { type: 'string', demandOption: true })
      .option('worker', { type: 'string', demandOption: true, describe: 'worker id, e.g. env-0' })
      .option('fault', { choices: FAULTS, demandOption: true })
      .option('token-file', { type: 'string' })
      .example(
        '$0 inject --run-dir runs/demo --worker env-0 --fault crash',
        'crash env-0; the supervisor restarts it',
      ),
  handler: (argv) =>
    exitWith(() =>
      injectFault({
        runDir: argv['run-dir'],
        worker: argv.worker,
        fault: argv.fault,
        tokenFile: argv['token-file'],
      }),
    ),
});
