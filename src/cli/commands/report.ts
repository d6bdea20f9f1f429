// `tti-run report`: a self-contained HTML report of a run (plots as PNGs, the eval table by tier
// and template) in RUN_DIR/report or --out; with --untrained-eval, the untrained baseline beside
// them.
import { existsSync } from 'node:fs';
import { ConfigError } from '../../config/index.js';
import { readUntrainedEval, writeRunReport } from '../../report/index.js';

export async function report(args: {
  runDir: string;
  out: string | undefined;
  untrainedEval?: string | undefined;
}): Promise<number> {
  if (!existsSync(args.runDir)) throw new ConfigError(`${args.runDir} does not exist: pass a run directory`);
  // read before the report: a bad file is refused before anything is written
  const untrained = args.untrainedEval === undefined ? undefined : readUntrainedEval(args.untrainedEval);
  const written = await writeRunReport({
    runDir: args.runDir,
    ...(args.out === undefined ? {} : { out: args.out }),
    ...(untrained === undefined ? {} : { untrained }),
  }).catch((error: unknown) => {
    throw new ConfigError((error as Error).message);
  });
  for (const warning of written.warnings) process.stderr.write(`${warning}\n`);
  process.stdout.write(`${[written.html, ...written.pngs].join('\n')}\n`);
  return 0;
}
