// `tti-run plot`: a run's metrics.jsonl as PNGs — the learning curve with the horizon curriculum
// marked, and the other per-iteration series (the plots `tti-run report` shows).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../config/index.js';
import { PlotRenderer, readMetrics, readUntrainedEval, runPlots } from '../../report/index.js';

export async function plot(args: {
  runDir: string;
  out: string | undefined;
  untrainedEval?: string | undefined;
}): Promise<number> {
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
