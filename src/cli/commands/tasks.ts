// `tti-run tasks ...`: validate task files, rebuild MiniArena's suite, check it with the oracle.
import type { TaskLoadOptions } from '../../envs/index.js';
import type { verified } from '../../suites/index.js';

type VerifiedCounts = verified.VerifiedCounts;

import { defineCommand, exitWith } from '../command.js';

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

export async function validateTasks(args: {
  files: string[];
  json: boolean;
  hosts: string[];
  rewrite: string[];
}): Promise<number> {
  const { formatTaskIssue, validateTaskFiles } = await import('../../envs/index.js');
  const { verified } = await import('../../suites/index.js');
  const options: TaskLoadOptions = {
    hosts: pairs('host', args.hosts),
    hostRewrite: pairs('rewrite', args.rewrite),
  };
  const verifiedFiles = args.files.filter((f) => verified.isVerifiedFile(f));
  const report: ReturnType<typeof validateTaskFiles> & Partial<VerifiedCounts> = validateTaskFiles(
    args.files.filter((f) => !verifiedFiles.includes(f)),
    options,
  );
  if (verifiedFiles.length > 0) {
    // WebArena-Verified's files (and subsets): their own counts beside the shared ones
    const counts: VerifiedCounts = { byEvaluator: {}, byTaskType: {}, byStatus: {} };
    for (const file of verifiedFiles) {
      const r = verified.readVerifiedSplit(file);
      report.tasks += r.tasks.length;
      report.errors.push(...r.issues);
      verified.countVerified(r.tasks, counts);
      for (const t of r.tasks) {
        const evals = [...new Set(t.eval.map((e) => e.evaluator))].join('+');
        report.byEvalType[evals] = (report.byEvalType[evals] ?? 0) + 1;
        const site = t.sites[0] ?? '';
        report.bySite[site] = (report.bySite[site] ?? 0) + 1;
      }
    }
    Object.assign(report, counts);
  }
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(`${report.tasks} tasks in ${args.files.length} file(s)\n`);
    process.stdout.write(`by eval type: ${JSON.stringify(report.byEvalType)}\n`);
    process.stdout.write(`by site: ${JSON.stringify(report.bySite)}\n`);
    if (report.byEvaluator) {
      process.stdout.write(`by evaluator: ${JSON.stringify(report.byEvaluator)}\n`);
      process.stdout.write(`by task type: ${JSON.stringify(report.byTaskType)}\n`);
      process.stdout.write(`by status: ${JSON.stringify(report.byStatus)}\n`);
    }
    for (const issue of report.errors) process.stderr.write(`error: ${formatTaskIssue(issue)}\n`);
    if (report.errors.length > 0) process.stderr.write(`${report.errors.length} error(s)\n`);
  }
  return report.errors.length > 0 ? 1 : 0;
}

interface WrittenSplits {
  train: string;
  test: string;
  counts: { train: number; test: number };
}

/** MiniArena's train and test files written by `write` (for a seed, into a folder), and where they went. */
function writeSplits<W extends WrittenSplits>(
  write: (o: { seed?: number; dir?: string }) => W,
  seed: number | undefined,
  dir: string | undefined,
): W {
  const written = write({ ...(seed === undefined ? {} : { seed }), ...(dir === undefined ? {} : { dir }) });
  process.stdout.write(
    `wrote ${written.counts.train} train tasks to ${written.train}\nwrote ${written.counts.test} test tasks to ${written.test}\n`,
  );
  return written;
}

export async function generateTasks(args: {
  seed: number | undefined;
  dir: string | undefined;
}): Promise<number> {
  const { writeTaskFiles } = await import('../../arena/index.js');
  const written = writeSplits(writeTaskFiles, args.seed, args.dir);
  if (written.unmeasured > 0)
    process.stdout.write(
      `${written.unmeasured} tasks have no measured oracle length (new or changed): tti-run tasks check --unmeasured --write-lengths\n`,
    );
  return 0;
}

/** `tti-run tasks export --format verified`: MiniArena's suite in WebArena-Verified's format. */
export async function exportTasks(args: {
  seed: number | undefined;
  out: string | undefined;
}): Promise<number> {
  const { writeVerifiedTaskFiles } = await import('../../arena/index.js');
  writeSplits(writeVerifiedTaskFiles, args.seed, args.out);
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

export const tasksCommand = defineCommand({
  command: 'tasks',
  describe: "task files: validate them, rebuild or export MiniArena's suite",
  builder: (y) =>
    y
      .command(
        'validate <files..>',
        'check task files (WebArena raw JSON, WebArena-Verified JSON and subsets, TTI jsonl, WebVoyager jsonl); exit 1 on errors',
        (v) =>
          v
            .positional('files', { type: 'string', array: true, demandOption: true })
            .option('json', { type: 'boolean', default: false })
            .option('host', {
              type: 'string',
              array: true,
              default: [] as string[],
              describe: 'site=URL for placeholders, e.g. shopping=http://localhost:7770',
            })
            .option('rewrite', {
              type: 'string',
              array: true,
              default: [] as string[],
              describe: 'from=to host rewrite for TTI jsonl',
            })
            .example(
              '$0 tasks validate ../shared/data/webarena/test.raw.json --json',
              'counts by eval type and site, errors',
            )
            .example('$0 tasks validate tasks/miniarena/*.json', "MiniArena's suite")
            .example(
              '$0 tasks validate ../shared/data/webarena-verified/webarena-verified.json --json',
              'WebArena-Verified: counts by evaluator, task type and status too',
            ),
        (argv) =>
          exitWith(() =>
            validateTasks({
              files: (argv.files ?? []).map(String),
              json: argv.json,
              hosts: argv.host.map(String),
              rewrite: argv.rewrite.map(String),
            }),
          ),
      )
      .command(
        'generate',
        "rebuild MiniArena's task suite (deterministic for a seed)",
        (g) =>
          g
            .option('seed', { type: 'number', describe: "data seed (default: the suite's)" })
            .option('dir', { type: 'string', describe: 'output folder (default: tasks/miniarena)' })
            .example('$0 tasks generate', 'rewrite tasks/miniarena/{train,test}.json'),
        (argv) => exitWith(() => generateTasks({ seed: argv.seed, dir: argv.dir })),
      )
      .command(
        'export',
        "write MiniArena's task suite in another benchmark's format (WebArena-Verified's)",
        (e) =>
          e
            .option('format', { choices: ['verified'] as const, demandOption: true })
            .option('seed', { type: 'number', describe: "data seed (default: the suite's)" })
            .option('out', { type: 'string', describe: 'output folder (default: tasks/miniarena/verified)' })
            .example(
              '$0 tasks export --format verified --out /tmp/v',
              'then: tti-run eval --set env.suite=webarena-verified --set tasks.test=/tmp/v/test.json',
            ),
        (argv) => exitWith(() => exportTasks({ seed: argv.seed, out: argv.out })),
      )
      .command(
        'check',
        "run MiniArena's oracle on its tasks: every task must be solvable through the env's actions",
        (c) =>
          c
            .option('split', { choices: ['train', 'test', 'all'] as const, default: 'all' as const })
            .option('limit', { type: 'number', describe: 'at most N tasks, spread over the templates' })
            .option('concurrency', {
              type: 'number',
              default: 2,
              describe: 'MiniArena instances and browsers in parallel',
            })
            .option('json', { type: 'boolean', default: false })
            .option('write-lengths', {
              type: 'boolean',
              default: false,
              describe: "record the oracle's step counts as the tasks' minimal lengths (full runs)",
            })
            .option('unmeasured', {
              type: 'boolean',
              default: false,
              describe: 'only tasks without a measured length (after a template change; see tasks generate)',
            })
            .option('min-rate', { type: 'number', default: 0.99, describe: 'exit 1 below this solve rate' })
            .example('$0 tasks check --split test --limit 40 --json', 'a quick sample of every template')
            .example(
              '$0 tasks check --split all --write-lengths',
              'the full suite, recording minimal lengths',
            )
            .example(
              '$0 tasks generate && $0 tasks check --unmeasured --write-lengths',
              'after a template change: measure only the tasks it changed',
            ),
        (argv) =>
          exitWith(() =>
            checkTasks({
              split: argv.split,
              limit: argv.limit,
              concurrency: argv.concurrency,
              json: argv.json,
              writeLengths: argv['write-lengths'],
              unmeasured: argv.unmeasured,
              minRate: argv['min-rate'],
            }),
          ),
      )
      .demandCommand(1, 'name a tasks command; see tti-run tasks --help'),
  // only its subcommands run: without one, demandCommand answers
  handler: () => {},
});
