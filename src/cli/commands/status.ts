// `tti-run status`: one snapshot of a run, as the live view's table (in words) or as JSON (the
// snapshot as the supervisor sent it, raw counter names and all).

import { existsSync, readFileSync } from 'node:fs';
import { loadConfig } from '../../config/index.js';
import { RunDir, StatusClient } from '../../run/index.js';
import { defineCommand, exitWith } from '../command.js';
import { lastResults } from '../last-results.js';

/** What a stopped run left in state.json and metrics.jsonl, in words (`--json` has it all). */
function leftBehind(last: object, runDir: RunDir): string {
  const { state, reason, iteration, policyVersion, horizon } = last as Record<string, unknown>;
  const { collection, eval: lastEval } = lastResults(runDir.root);
  const rate = (r: typeof collection) =>
    r ? `${Math.round(r.success * 100)}% of ${r.episodes} episodes (iteration ${r.iteration})` : 'none yet';
  return (
    `the run was last ${String(state ?? 'unknown')}${typeof reason === 'string' ? ` (${reason})` : ''}` +
    ` at iteration ${String(iteration ?? '-')}, policy v${String(policyVersion ?? '-')}, horizon ${String(horizon ?? '-')};` +
    ` collection success ${rate(collection)}, last eval ${rate(lastEval)}`
  );
}

export async function status(args: { runDir: string; json: boolean; timeoutMs: number }): Promise<number> {
  const runDir = new RunDir(args.runDir);
  if (!existsSync(runDir.supervisorInfo)) {
    // No live supervisor: report what the run left behind.
    const last = existsSync(runDir.state) ? (JSON.parse(readFileSync(runDir.state, 'utf8')) as object) : null;
    const body = { pid: null, state: 'not running', last, workers: [] };
    if (args.json) process.stdout.write(`${JSON.stringify(body)}\n`);
    else
      process.stdout.write(
        `no supervisor is running in ${runDir.root}${last ? `; ${leftBehind(last, runDir)}` : ''}\n`,
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
      // the run's own config says which strategies are on; without it, no strategy block
      const config = existsSync(runDir.config) ? loadConfig(runDir.config) : null;
      const { renderStatusTable } = await import('../console-view.js');
      const { strategyBlocks } = await import('../view-strategies.js');
      const table = renderStatusTable(reply.snapshot, {
        iterations: config?.iterations ?? reply.snapshot.iteration,
        strategies: config ? strategyBlocks(config) : [],
        results: lastResults(runDir.root),
      });
      process.stdout.write(`${table}\n`);
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
