// `tti-run tasks ...`: validate task files, rebuild MiniArena's suite.

import { writeTaskFiles } from '../../arena/index.js';
import { formatTaskIssue, type TaskLoadOptions, validateTaskFiles } from '../../envs/index.js';

/** `key=value` pairs from repeated flags, e.g. `--host shopping=http://localhost:7770`. */
export function pairs(flag: string, values: readonly string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new Error(`--${flag} '${value}': expected name=value`);
    map[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return map;
}

export function validateTasks(args: {
  files: string[];
  json: boolean;
  hosts: string[];
  rewrite: string[];
}): number {
  const options: TaskLoadOptions = {
    hosts: pairs('host', args.hosts),
    hostRewrite: pairs('rewrite', args.rewrite),
  };
  const report = validateTaskFiles(args.files, options);
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(`${report.tasks} tasks in ${args.files.length} file(s)\n`);
    process.stdout.write(`by eval type: ${JSON.stringify(report.byEvalType)}\n`);
    process.stdout.write(`by site: ${JSON.stringify(report.bySite)}\n`);
    for (const issue of report.errors) process.stderr.write(`error: ${formatTaskIssue(issue)}\n`);
    if (report.errors.length > 0) process.stderr.write(`${report.errors.length} error(s)\n`);
  }
  return report.errors.length > 0 ? 1 : 0;
}

export function generateTasks(args: { seed: number | undefined; dir: string | undefined }): number {
  const written = writeTaskFiles({
    ...(args.seed === undefined ? {} : { seed: args.seed }),
    ...(args.dir === undefined ? {} : { dir: args.dir }),
  });
  process.stdout.write(
    `wrote ${written.counts.train} train tasks to ${written.train}\nwrote ${written.counts.test} test tasks to ${written.test}\n`,
  );
  if (written.unmeasured > 0)
    process.stdout.write(
      `${written.unmeasured} tasks have no measured oracle length (new or changed): tti-run tasks check --unmeasured --write-lengths\n`,
    );
  return 0;
}

/** `tti-run tasks check`: MiniArena's oracle over a split; exit 1 when the rate is under `minRate`. */
export async function checkTasks(args: {
  split: 'train' | 'test' | 'all';
  limit: number | undefined;
  concurrency: number;
  json: boolean;
  writeLengths: boolean;
  unmeasured: boolean;
  minRate: number;
}): Promise<number> {
  const { checkTasks: runOracle } = await import('../../arena/index.js');
  const result = await runOracle({
    split: args.split,
    ...(args.limit === undefined ? {} : { limit: args.limit }),
    concurrency: args.concurrency,
    writeLengths: args.writeLengths,
    unmeasured: args.unmeasured,
    onEpisode: args.json
      ? undefined
      : (_episode, done, total) => {
          if (done % 25 === 0 || done === total) process.stderr.write(`  ${done}/${total} episodes\n`);
        },
  });
  const { episodes: _episodes, lengths: _lengths, ...summary } = result;
  if (args.json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    process.stdout.write(
      `${summary.solved}/${summary.tasks} solved (rate ${summary.rate.toFixed(4)}) in ${(summary.durationMs / 1000).toFixed(0)} s\n`,
    );
    for (const [tier, stats] of Object.entries(summary.byTier))
      process.stdout.write(`  tier ${tier}: ${JSON.stringify(stats)}\n`);
    for (const f of summary.failures)
      process.stderr.write(`  failed: task ${f.task_id} (${f.template}): ${f.why}\n`);
  }
  return summary.rate >= args.minRate ? 0 : 1;
}
