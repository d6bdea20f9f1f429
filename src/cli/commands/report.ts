// `tti-run report`: a self-contained HTML report of a run (plots as PNGs, the eval table by tier
// and template) in RUN_DIR/report or --out; with --untrained-eval, the untrained baseline beside
// them.

import { existsSync } from 'node:fs';
import { ConfigError } from '../../config/index.js';
import { defineCommand, exitWith } from '../command.js';

export async function report(args: {
  runDir: string;
  out: string | undefined;
  untrainedEval?: string | undefined;
}): Promise<number> {
  const { readUntrainedEval, writeRunReport } = await import('../../report/index.js');
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

export const reportCommand = defineCommand({
  command: 'report',
  describe:
    'write a self-contained HTML report of a run: PNG plots of its metrics and the eval table by tier and template',
  builder: (y) =>
    y
      .option('run-dir', { type: 'string', demandOption: true })
      .option('out', { type: 'string', describe: 'output folder (default: RUN_DIR/report)' })
      .option('untrained-eval', {
        type: 'string',
        describe:
          'an `eval --untrained --json` summary: a reference line on the learning curve, and an "untrained" column beside eval.json\'s',
      })
      .example('$0 report --run-dir runs/quick', 'runs/quick/report/index.html and its PNGs')
      .example(
        '$0 report --run-dir runs/quick --untrained-eval untrained.json',
        'the learning curve with the untrained eval as a dotted rule',
      )
      .example(
        '$0 report --run-dir runs/quick-test --untrained-eval untrained.json',
        'an eval folder (eval --out-dir runs/quick-test): an "untrained" column in its tables',
      ),
  handler: (argv) =>
    exitWith(() =>
      report({
        runDir: argv['run-dir'],
        out: argv.out,
        untrainedEval: argv['untrained-eval'],
      }),
    ),
});
