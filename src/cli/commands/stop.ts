// `tti-run stop` and `tti-run inject`: the mutating commands, which carry the run's token.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault } from '../../protocol/index.js';
import { isAlive, RunDir, readRunToken, StatusClient, TokenUnavailable } from '../../run/index.js';

export const EXIT_REFUSED = 2;

function token(runDir: RunDir, tokenFile: string | undefined): string {
  return readRunToken(tokenFile ?? runDir.token);
}

async function send(
  runDir: RunDir,
  message: object,
): Promise<{ ok: boolean; message: string; pid: number } | null> {
  const client = StatusClient.forRun(runDir);
  try {
    const reply = await client.request(message, 5000);
    if (reply?.type !== 'control_reply') return null;
    return { ok: reply.ok, message: reply.message, pid: client.info.pid };
  } finally {
    client.close();
  }
}

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
  const reply = await send(runDir, { type: 'stop_request', token: secret });
  if (reply === null) {
    process.stderr.write('tti-run stop: the supervisor did not answer\n');
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
