// One WebArena-Verified task scored from an agent response and a network trace, as an episode's
// verdict and as `tti-run score` reads an agent-logs folder: every evaluator of the task, the score
// their product (WebArena's rule). What is malformed (a response that is not one, a trace that is
// not HAR) scores 0 and the reason names the file and the field.
import {
  evaluateAgentResponse,
  evaluateNetworkEvents,
  type HarLog,
  networkEvents,
  parseAgentResponse,
  type VerifiedTask,
} from '../../envs/index.js';
import { agentResponseConfig } from './tasks.js';

export interface EvaluatorScore {
  name: string;
  score: number;
  reason: string;
}

export interface TaskScore {
  score: number;
  evaluators: EvaluatorScore[];
}

/** What was read for a task: the response (or why it could not be), the trace (or why not). */
export interface TaskEvidence {
  response: { value: unknown } | { error: string };
  trace: { har: HarLog } | { error: string } | null;
}

export function scoreTask(
  task: VerifiedTask,
  evidence: TaskEvidence,
  derender: (s: string) => string,
): TaskScore {
  const evaluators: EvaluatorScore[] = [];
  const expected = agentResponseConfig(task.eval).expected;
  const events = evidence.trace && 'har' in evidence.trace ? networkEvents(evidence.trace.har) : null;
  for (const config of task.eval) {
    if (config.evaluator === 'AgentResponseEvaluator') {
      if ('error' in evidence.response) {
        evaluators.push({ name: config.evaluator, score: 0, reason: evidence.response.error });
        continue;
      }
      const parsed = parseAgentResponse(evidence.response.value);
      if ('error' in parsed) {
        evaluators.push({ name: config.evaluator, score: 0, reason: `malformed response: ${parsed.error}` });
        continue;
      }
      const r = evaluateAgentResponse(config, evidence.response.value, derender);
      evaluators.push({ name: r.evaluator, score: r.score, reason: r.why });
    } else {
      if (events === null) {
        const why = evidence.trace && 'error' in evidence.trace ? evidence.trace.error : 'no network trace';
        evaluators.push({ name: config.evaluator, score: 0, reason: why });
        continue;
      }
      const r = evaluateNetworkEvents(config, events, { taskType: expected.task_type, derender });
      evaluators.push({ name: r.evaluator, score: r.score, reason: r.why });
    }
  }
  return { score: evaluators.reduce((s, e) => s * e.score, 1), evaluators };
}

/** The evaluator that decided a score: the first that failed, else the last. */
export function decidingEvaluator(s: TaskScore): EvaluatorScore {
  return s.evaluators.find((e) => e.score < 1) ?? s.evaluators[s.evaluators.length - 1]!;
}
