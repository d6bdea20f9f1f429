// `tti-run stop`: a graceful stop, which carries the run's token.
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive, RunDir, TokenUnavailable } from '../../run/index.js';
import { defineCommand, exitWith } from '../command.js';
import { EXIT_REFUSED, send, token } from '../control-request.js';

/** How long a stop request waits for the supervisor's answer. */
const STOP_ANSWER_MS = 15_000;

export async function stopRun(args: {
  runDir: string;
  tokenFile: string | undefined;
  timeoutMs: number;
}): Promise<number> {
  const runDir = new RunDir(args.runDir);
  let secret: string;
  try {
    secret = token(runDir, args.tokenFile);
  } catch (error) {
    if (!(error instanceof TokenUnavailable)) throw error;
    process.stderr.write(`tti-run stop: refused: ${error.message}\n`);
    return EXIT_REFUSED;
  }
  // A busy machine's supervisor may take seconds to read its control socket; a stop is worth waiting for.
  const reply = await send(runDir, { type: 'stop_request', token: secret }, STOP_ANSWER_MS);
  if (reply === null) {
    process.stderr.write(`tti-run stop: the supervisor did not answer within ${STOP_ANSWER_MS / 1000} s\n`);
    return 1;
  }
  if (!reply.ok) {
    process.stderr.write(`tti-run stop: ${reply.message}\n`);
    return EXIT_REFUSED;
  }
  process.stdout.write(`stopping run (supervisor pid ${reply.pid})...\n`);
  const deadline = Date.now() + args.timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(reply.pid)) {
      process.stdout.write('stopped\n');
      return 0;
    }
    await sleep(100);
  }
  process.stderr.write(`tti-run stop: the supervisor is still stopping after ${args.timeoutMs} ms\n`);
  return 1;
}

export const stopCommand = defineCommand({
  command: 'stop',
  describe: "stop a run gracefully (needs the run's token)",
  builder: (y) =>
    y
      .option('run-dir', { type: 'string', demandOption: true })
      .option('token-file', { type: 'string', describe: 'the run token (default: RUN_DIR/token)' })
      .option('timeout', { type: 'number', default: 60000, describe: 'ms to wait for the run to end' })
      .example('$0 stop --run-dir runs/demo', 'finish in-flight work, flush, exit'),
  handler: (argv) =>
    exitWith(() =>
      stopRun({
        runDir: argv['run-dir'],
        tokenFile: argv['token-file'],
        timeoutMs: argv.timeout,
      }),
    ),
});
