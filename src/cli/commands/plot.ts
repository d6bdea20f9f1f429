// `tti-run plot`: a run's metrics.jsonl as PNGs — the learning curve with the horizon curriculum
// marked, and the other per-iteration series (the plots `tti-run report` shows).

import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../config/index.js';
import { defineCommand, exitWith } from '../command.js';

export async function plot(args: {
  runDir: string;
  out: string | undefined;
  untrainedEval?: string | undefined;
}): Promise<number> {
  const { PlotRenderer, readMetrics, readUntrainedEval, runPlots } = await import('../../report/index.js');
  // read first: a bad file is refused before anything is drawn
  const untrained =
    args.untrainedEval !== undefined ? readUntrainedEval(args.untrainedEval).success : undefined;
  const file = path.join(args.runDir, 'metrics.jsonl');
  if (!existsSync(file)) throw new ConfigError(`${file} does not exist: has the run completed an iteration?`);
  const { rows, warnings } = readMetrics(file);
  for (const warning of warnings) process.stderr.write(`${warning.text}\n`);
  const out = args.out ?? path.join(args.runDir, 'plots');
  const renderer = await PlotRenderer.launch();
  try {
    const written: string[] = [];
    for (const p of runPlots(rows, untrained))
      written.push(await renderer.render(p.spec, path.join(out, `${p.name}.png`)));
    process.stdout.write(`${written.join('\n')}\n`);
  } finally {
    await renderer.close();
  }
  return 0;
}

export const plotCommand = defineCommand({
  command: 'plot',
  describe: "draw a run's learning curve (and its other metrics) from metrics.jsonl as PNGs",
  builder: (y) =>
    y
      .option('run-dir', { type: 'string', demandOption: true })
      .option('out', { type: 'string', describe: 'output folder (default: RUN_DIR/plots)' })
      .option('untrained-eval', {
        type: 'string',
        describe: "an `eval --untrained --json` summary on the run's eval tasks: a reference line",
      })
      .example('$0 plot --run-dir runs/quick --out docs/img', 'learning-curve.png and friends')
      .example(
        '$0 eval --untrained --preset quick --limit 78 --json > untrained.json && $0 plot --run-dir runs/quick --untrained-eval untrained.json',
        'the learning curve with the untrained policy marked',
      ),
  handler: (argv) =>
    exitWith(() =>
      plot({
        runDir: argv['run-dir'],
        out: argv.out,
        untrainedEval: argv['untrained-eval'],
      }),
    ),
});
