// `tti-run plot`: a run's metrics.jsonl as PNGs — the learning curve with the horizon curriculum
// marked, and the other per-iteration series (the plots `tti-run report` shows).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../../config/load.js';
import { PlotRenderer, readMetrics, runPlots } from '../../report/index.js';

/** What `--untrained-eval` reads of an `eval --json` summary. */
const EvalSummaryFile = z.looseObject({ success: z.number().min(0).max(1) });

function untrainedSuccess(file: string): number {
  if (!existsSync(file)) throw new ConfigError(`--untrained-eval ${file} does not exist`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`--untrained-eval ${file} is not JSON: ${(e as Error).message}`);
  }
  const parsed = EvalSummaryFile.safeParse(json);
  if (!parsed.success)
    throw new ConfigError(
      `--untrained-eval ${file}: "success" must be a rate in [0, 1], as \`tti-run eval --json\` prints it`,
    );
  return parsed.data.success;
}

export async function plot(args: {
  runDir: string;
  out: string | undefined;
  untrainedEval?: string | undefined;
}): Promise<number> {
  const untrained = args.untrainedEval !== undefined ? untrainedSuccess(args.untrainedEval) : undefined;
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
