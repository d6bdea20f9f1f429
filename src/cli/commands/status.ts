// `tti-run status`: one snapshot of a run, as a table or JSON.

import { existsSync, readFileSync } from 'node:fs';
import { loadConfig } from '../../config/index.js';
import { RunDir, StatusClient } from '../../run/index.js';
import { defineCommand, exitWith } from '../command.js';

export async function status(args: { runDir: string; json: boolean; timeoutMs: number }): Promise<number> {
  const runDir = new RunDir(args.runDir);
  if (!existsSync(runDir.supervisorInfo)) {
    // No live supervisor: report what the run left behind.
    const last = existsSync(runDir.state) ? (JSON.parse(readFileSync(runDir.state, 'utf8')) as object) : null;
    const body = { pid: null, state: 'not running', last, workers: [] };
    if (args.json) process.stdout.write(`${JSON.stringify(body)}\n`);
    else
      process.stdout.write(
        `no supervisor is running in ${runDir.root}${last ? `; last state: ${JSON.stringify(last)}` : ''}\n`,
      );
    return 1;
  }
  const client = StatusClient.forRun(runDir);
  try {
    const reply = await client.request({ type: 'status_request' }, args.timeoutMs);
    if (reply === null || reply.type !== 'status_reply') {
      process.stderr.write(
        `the supervisor (pid ${client.info.pid}) did not answer within ${args.timeoutMs} ms\n`,
      );
      return 1;
    }
    if (args.json) {
      // each env worker's busy share and time split, beside the raw `time.*` counters
      const { timeSplitOf } = await import('../../protocol/index.js');
      const envTime = Object.fromEntries(
        reply.snapshot.workers.filter((w) => w.role === 'env').map((w) => [w.id, timeSplitOf(w.counters)]),
      );
      process.stdout.write(`${JSON.stringify({ ...reply.snapshot, envTime })}\n`);
    } else {
      const iterations = existsSync(runDir.config)
        ? loadConfig(runDir.config).iterations
        : reply.snapshot.iteration;
      const { renderStatusTable } = await import('../console-view.js');
      process.stdout.write(`${renderStatusTable(reply.snapshot, iterations)}\n`);
    }
    return 0;
  } finally {
    client.close();
  }
}

export const statusCommand = defineCommand({
  command: 'status',
  describe: 'print one snapshot of a run',
  builder: (y) =>
    y
      .option('run-dir', { type: 'string', demandOption: true })
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
      .option('timeout', { type: 'number', default: 3000, describe: 'ms to wait for the supervisor' })
      .example('$0 status --run-dir runs/demo', 'a table of the run and its workers')
      .example('$0 status --run-dir runs/demo --json | jq .workers', 'JSON'),
  handler: (argv) =>
    exitWith(() =>
      status({
        runDir: argv['run-dir'],
        json: argv.json,
        timeoutMs: argv.timeout,
      }),
    ),
});
