// `tti-run tasks ...`: validate task files, rebuild MiniArena's suite.
import { formatTaskIssue, type TaskLoadOptions, validateTaskFiles } from '../../envs/index.js';
import { writeTaskFiles } from '../../envs/miniarena/index.js';

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
  return 0;
}
