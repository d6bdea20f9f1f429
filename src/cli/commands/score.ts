// `tti-run score`: WebArena-Verified's agent-logs folder (OUT/<task_id>/agent_response.json and
// network.har, tti's own or any agent's) scored by tti's evaluators: per task the score, the
// evaluator that decided it and why. A malformed file scores 0 and the reason names it and the field.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { defineCommand, exitWith } from '../command.js';

interface ScoreReport {
  tasks: number;
  score: number;
  byTask: Record<string, { score: number; evaluators: { name: string; score: number; reason: string }[] }>;
}

export async function scoreAgentLogs(args: {
  tasks: string;
  agentLogs: string;
  json: boolean;
  webarenaHost: string | undefined;
}): Promise<number> {
  const { verified } = await import('../../suites/index.js');
  const split = verified.readVerifiedSplit(args.tasks);
  if (split.issues.length > 0) {
    for (const i of split.issues.slice(0, 10))
      process.stderr.write(`error: ${i.file}: ${i.entryLabel}: ${i.field} ${i.message}\n`);
    throw new Error(`${args.tasks}: ${split.issues.length} error(s) in the task file`);
  }
  const dir = path.resolve(args.agentLogs);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => statSync(path.join(dir, n)).isDirectory());
  } catch (e) {
    throw new Error(`--agent-logs ${args.agentLogs}: ${(e as Error).message}`);
  }
  const byId = new Map(split.tasks.map((t) => [String(t.task_id), t]));
  const unknown = names.filter((n) => !byId.has(n));
  if (unknown.length > 0)
    process.stderr.write(
      `note: ${unknown.length} folder(s) name no task of ${args.tasks}: ${unknown.slice(0, 5).join(', ')}\n`,
    );
  const hosts =
    verified.readLoggedHosts(dir) ??
    (args.webarenaHost === undefined ? new Map<string, string>() : verified.verifiedHosts(args.webarenaHost));
  const derender = verified.verifiedDerender(hosts);
  const report: ScoreReport = { tasks: 0, score: 0, byTask: {} };
  const ids = names.filter((n) => byId.has(n)).sort((a, b) => Number(a) - Number(b));
  for (const id of ids) {
    const task = byId.get(id)!;
    const needsTrace = task.eval.some((e) => e.evaluator === 'NetworkEventEvaluator');
    const scored = verified.scoreTask(task, verified.readAgentLogs(dir, id, needsTrace), derender);
    report.byTask[id] = scored;
    report.tasks += 1;
    report.score += scored.score;
    if (!args.json) {
      const by = verified.decidingEvaluator(scored);
      process.stdout.write(`task ${id}: ${scored.score} (${by.name}: ${by.reason})\n`);
    }
  }
  report.score = report.tasks === 0 ? 0 : report.score / report.tasks;
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${report.tasks} task(s) scored, mean score ${report.score.toFixed(4)}\n`);
  return 0;
}

export const scoreCommand = defineCommand({
  command: 'score',
  describe: "score a WebArena-Verified agent-logs folder (tti's or another agent's) with tti's evaluators",
  builder: (y) =>
    y
      .option('tasks', {
        type: 'string',
        demandOption: true,
        describe: 'webarena-verified.json, or a subset of it (webarena-verified-hard.json)',
      })
      .option('agent-logs', {
        type: 'string',
        demandOption: true,
        describe: 'a folder of <task_id>/agent_response.json and <task_id>/network.har',
      })
      .option('json', { type: 'boolean', default: false })
      .option('webarena-host', {
        type: 'string',
        describe: "the host the traces' URLs name, for another agent's logs (tti's own logs say it)",
      })
      .example(
        '$0 score --tasks ../shared/data/webarena-verified/webarena-verified.json --agent-logs runs/r1/agent-logs',
        "a tti run's episodes, per task: score, deciding evaluator, reason",
      )
      .example(
        '$0 score --tasks webarena-verified-hard.json --agent-logs their-logs --webarena-host localhost --json',
        "another agent's logs on the Hard subset: { tasks, score, byTask }",
      ),
  handler: (argv) =>
    exitWith(() =>
      scoreAgentLogs({
        tasks: argv.tasks,
        agentLogs: argv['agent-logs'],
        json: argv.json,
        webarenaHost: argv['webarena-host'],
      }),
    ),
});
