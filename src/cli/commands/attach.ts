// `tti-run attach`: a live view of a running run until Ctrl-C. It only reads (status requests and
// the event stream), so attaching and detaching never disturb the run.

import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../config/index.js';
import { Channel, Inbound, type RunEvent, type StatusSnapshot } from '../../protocol/index.js';
import { RunDir, StatusClient } from '../../run/index.js';
import { defineCommand, exitWith } from '../command.js';
import { lastResults } from '../last-results.js';

export async function attach(args: { runDir: string; intervalMs: number }): Promise<number> {
  const { default: logUpdate } = await import('log-update');
  const { renderRun } = await import('../console-view.js');
  const { strategyBlocks } = await import('../view-strategies.js');
  const runDir = new RunDir(args.runDir);
  const client = StatusClient.forRun(runDir);
  // the run's own config says which strategies are on; without it, no strategy block
  const config = existsSync(runDir.config) ? loadConfig(runDir.config) : null;
  const iterations = config?.iterations ?? 1;
  const strategies = config ? strategyBlocks(config) : [];
  const events: RunEvent[] = [];
  const sub = Channel.create('events', 'sub', Inbound.events, client.rejected, client.tuning);
  sub.connect(client.info.eventsEndpoint);
  void sub.serve(({ message }) => {
    events.push(message);
    events.splice(0, Math.max(0, events.length - 20));
  });
  let detached = false;
  process.on('SIGINT', () => {
    detached = true;
  });
  let previous: StatusSnapshot | null = null;
  let misses = 0;
  // metrics.jsonl gains a row per finished iteration: read again when the iteration moves on
  let results = lastResults(runDir.root);
  while (!detached) {
    const reply = await client.request({ type: 'status_request' }, 2000);
    if (reply?.type === 'status_reply') {
      misses = 0;
      if (previous !== null && previous.iteration !== reply.snapshot.iteration)
        results = lastResults(runDir.root);
      logUpdate(renderRun(reply.snapshot, events, { iterations, previous, strategies, results }));
      previous = reply.snapshot;
      if (reply.snapshot.state === 'stopped' || reply.snapshot.state === 'failed') break;
    } else if (++misses >= 3) {
      logUpdate(`the supervisor (pid ${client.info.pid}) stopped answering; the run has ended or is wedged`);
      break;
    }
    await sleep(args.intervalMs);
  }
  logUpdate.done();
  sub.close();
  client.close();
  return 0;
}

export const attachCommand = defineCommand({
  command: 'attach',
  describe: 'live view of a running run until Ctrl-C (never disturbs it)',
  builder: (y) =>
    y
      .option('run-dir', { type: 'string', demandOption: true })
      .option('interval', { type: 'number', default: 500, describe: 'ms between refreshes' })
      .example('$0 attach --run-dir runs/demo', 'watch workers, progress and rates'),
  handler: (argv) => exitWith(() => attach({ runDir: argv['run-dir'], intervalMs: argv.interval })),
});
