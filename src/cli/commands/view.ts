// `tti-run view`: the episode viewer for a run directory, on 127.0.0.1 until Ctrl-C.

import { existsSync } from 'node:fs';
import { ConfigError } from '../../config/index.js';
import { defineCommand, exitWith } from '../command.js';

export async function view(args: { runDir: string; port: number; pollMs: number }): Promise<number> {
  if (!existsSync(args.runDir)) throw new ConfigError(`${args.runDir} does not exist: pass a run directory`);
  const { startViewer } = await import('../../viewer/index.js');
  const viewer = await startViewer({ runDir: args.runDir, port: args.port, pollMs: args.pollMs }).catch(
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new ConfigError(`port ${args.port} is in use on 127.0.0.1: pick another with --port (0: any)`);
      throw error;
    },
  );
  const count = viewer.index.summaries.length;
  process.stdout.write(
    `tti viewer: ${viewer.url} (${count} episode${count === 1 ? '' : 's'} so far; new ones appear as they are written)\nCtrl-C to stop\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await viewer.close();
  return 0;
}

export const viewCommand = defineCommand({
  command: 'view',
  describe: "browse a run's episodes step by step in a local web page (127.0.0.1); follows a live run",
  builder: (y) =>
    y
      .option('run-dir', {
        type: 'string',
        demandOption: true,
        describe: 'a run directory or an eval --out-dir',
      })
      .option('port', { type: 'number', default: 7900, describe: 'port on 127.0.0.1 (0: any free port)' })
      .option('poll', {
        type: 'number',
        default: 2000,
        describe: "ms between the page's looks for new episodes",
      })
      .example('$0 view --run-dir runs/quick', 'then open http://127.0.0.1:7900/')
      .example('$0 view --run-dir runs/quick --port 0', 'on any free port (printed)'),
  handler: (argv) =>
    exitWith(() =>
      view({
        runDir: argv['run-dir'],
        port: argv.port,
        pollMs: argv.poll,
      }),
    ),
});
