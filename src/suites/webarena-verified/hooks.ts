// A WebArena-Verified episode in the browser: its network trace recorded from before its first
// navigation (for tasks whose evaluators read one), its answer read as their structured response
// (an answer that is not one is an invalid action), and its verdict: every evaluator of the task,
// with the agent-logs layout written for the episode.
import path from 'node:path';
import {
  combineVerdicts,
  derenderer,
  type EpisodeHooks,
  errorMessage,
  type HarLog,
  parseAgentResponse,
  responseJson,
  type Task,
  type VerifiedTask,
} from '../../envs/index.js';
import { writeAgentLogs } from './agent-logs.js';
import { NetworkTrace } from './network-trace.js';
import { scoreTask } from './score.js';

export const VERIFIED_EVALUATOR = 'webarena_verified';

export interface VerifiedHookOptions {
  /** the suite's tasks by id */
  tasks: ReadonlyMap<string, VerifiedTask>;
  /** placeholder → base URL */
  hosts: ReadonlyMap<string, string>;
  /** where the agent-logs layout goes (null: nowhere) */
  logDir: string | null;
  warn(message: string): void;
}

/** Deployment URLs back to placeholders, GitLab's SSH host (git@host:…) as __SSH_HOST__ too. */
export function verifiedDerender(hosts: ReadonlyMap<string, string>): (s: string) => string {
  const derender = derenderer(hosts);
  const gitlab = hosts.get('__GITLAB__');
  const ssh = gitlab ? new URL(gitlab).hostname : null;
  return (s) => {
    const out = derender(s);
    return ssh ? out.split(`git@${ssh}:`).join('git@__SSH_HOST__:') : out;
  };
}

const EMPTY_TRACE: HarLog = { log: { version: '1.2', creator: { name: 'tti', version: '1' }, entries: [] } };

/** Why an answer is not their response, or null when it is. */
export function answerError(answer: string): string | null {
  const value = responseJson(answer);
  if (value === null)
    return 'the answer must be a JSON object {"task_type": …, "status": …, "retrieved_data": […] or null, "error_details": … or null}';
  const r = parseAgentResponse(value);
  return 'error' in r ? `the answer is not a valid response: ${r.error}` : null;
}

export function verifiedHooks(o: VerifiedHookOptions): EpisodeHooks {
  const derender = verifiedDerender(o.hosts);
  let trace: NetworkTrace | null = null;
  const taskOf = (task: Task): VerifiedTask => {
    const t = o.tasks.get(task.id);
    if (!t) throw new Error(`no WebArena-Verified task ${task.id}`);
    return t;
  };
  return {
    evaluator: VERIFIED_EVALUATOR,
    // from before the first navigation: the start page's own load is in the trace
    async beforeNavigation({ context, task }) {
      const t = taskOf(task);
      // an episode abandoned without a verdict leaves its trace listening: end it here
      if (trace) await trace.stop();
      trace = null;
      // only where an evaluator reads the trace, or where the logs are written for their scorer
      if (t.eval.some((e) => e.evaluator === 'NetworkEventEvaluator') || o.logDir !== null)
        trace = new NetworkTrace(context);
    },
    checkAnswer: (answer) => answerError(answer),
    async score({ task, answer }) {
      const t = taskOf(task);
      const har = trace ? await trace.stop() : EMPTY_TRACE;
      trace = null;
      const value = responseJson(answer) ?? answer;
      if (o.logDir !== null) {
        try {
          writeAgentLogs(o.logDir, task.id, value, har, o.hosts);
        } catch (e) {
          o.warn(
            `agent logs for task ${task.id} not written to ${path.join(o.logDir, task.id)}: ${errorMessage(e)}`,
          );
        }
      }
      const scored = scoreTask(t, { response: { value }, trace: { har } }, derender);
      return combineVerdicts(
        scored.evaluators.map((e) => ({
          evaluator: e.name,
          score: e.score,
          status: 'scored' as const,
          why: e.reason,
        })),
      );
    },
  };
}
