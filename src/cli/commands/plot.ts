// `tti-run plot`: a run's metrics.jsonl as PNGs — the learning curve with the horizon curriculum
// marked, and the other per-iteration series.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../config/load.js';
import {
  learningCurveSpec,
  METRIC_FIELDS,
  metricSpec,
  PlotRenderer,
  readMetrics,
} from '../../report/index.js';

export async function plot(args: { runDir: string; out: string | undefined }): Promise<number> {
  const file = path.join(args.runDir, 'metrics.jsonl');
  if (!existsSync(file)) throw new ConfigError(`${file} does not exist: has the run completed an iteration?`);
  const { rows, warnings } = readMetrics(file);
  for (const warning of warnings) process.stderr.write(`${warning.text}\n`);
  const out = args.out ?? path.join(args.runDir, 'plots');
  const renderer = await PlotRenderer.launch();
  try {
    const written = [await renderer.render(learningCurveSpec(rows), path.join(out, 'learning-curve.png'))];
    for (const field of METRIC_FIELDS)
      written.push(await renderer.render(metricSpec(rows, field), path.join(out, `${field}.png`)));
    process.stdout.write(`${written.join('\n')}\n`);
  } finally {
    await renderer.close();
  }
  return 0;
}
