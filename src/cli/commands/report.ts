// `tti-run report`: a self-contained HTML report of a run (plots as PNGs, the eval table by tier
// and template) in RUN_DIR/report or --out.
import { existsSync } from 'node:fs';
import { ConfigError } from '../../config/load.js';
import { writeRunReport } from '../../report/index.js';

export async function report(args: { runDir: string; out: string | undefined }): Promise<number> {
  if (!existsSync(args.runDir)) throw new ConfigError(`${args.runDir} does not exist: pass a run directory`);
  const written = await writeRunReport({
    runDir: args.runDir,
    ...(args.out === undefined ? {} : { out: args.out }),
  }).catch((error: unknown) => {
    throw new ConfigError((error as Error).message);
  });
  for (const warning of written.warnings) process.stderr.write(`${warning}\n`);
  process.stdout.write(`${[written.html, ...written.pngs].join('\n')}\n`);
  return 0;
}
