// `tti-run view`: the episode viewer for a run directory, on 127.0.0.1 until Ctrl-C.
import { existsSync } from 'node:fs';
import { ConfigError } from '../../config/index.js';

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
