// WebArena-Verified's AgentResponseEvaluator: the agent's structured response (task_type, status,
// retrieved_data) against the reference, each normalised as the task's results_schema says. Their
// four steps: read the response (JSON, or JSON in a ``` block), take the reference, normalise both,
// compare. retrieved_data counts only for retrieve tasks; error_details never does.
import { differences, type Normalized, normalizeList } from './verified-compare.js';
import type { AgentResponse, AgentResponseEvaluatorConfig } from './verified-schema.js';
import { STATUSES, TASK_TYPES } from './verified-schema.js';
import { typedValue } from './verified-values.js';

export interface EvaluatorResult {
  evaluator: string;
  score: number;
  why: string;
}

/** The JSON an answer carries: the whole text, or the first ``` block in it; null when there is none. */
export function responseJson(answer: string): unknown {
  const text = answer.trim();
  const block = /```(?:json)?\s*\n?([\s\S]*?)\n?```/.exec(text);
  try {
    return JSON.parse(block ? block[1]!.trim() : text) as unknown;
  } catch {
    return null;
  }
}

/**
 * An answer as an agent response, or the field that is wrong: an object with task_type (or
 * performed_operation) and status from their lists (any case), retrieved_data a list or null,
 * error_details a string or null.
 */
export function parseAgentResponse(value: unknown): { response: AgentResponse } | { error: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { error: 'the response is not a JSON object' };
  const v = value as Record<string, unknown>;
  const taskType = v.task_type ?? v.performed_operation;
  if (typeof taskType !== 'string' || !(TASK_TYPES as readonly string[]).includes(taskType.toLowerCase()))
    return {
      error: `field task_type: expected one of ${TASK_TYPES.join(', ')} (any case), got ${JSON.stringify(taskType)}`,
    };
  if (typeof v.status !== 'string' || !(STATUSES as readonly string[]).includes(v.status.toUpperCase()))
    return { error: `field status: expected one of ${STATUSES.join(', ')}, got ${JSON.stringify(v.status)}` };
  const data = v.retrieved_data ?? null;
  if (data !== null && !Array.isArray(data))
    return { error: `field retrieved_data: expected a list or null, got ${JSON.stringify(data)}` };
  const details = v.error_details ?? null;
  if (details !== null && typeof details !== 'string')
    return { error: `field error_details: expected a string or null, got ${JSON.stringify(details)}` };
  return {
    response: {
      task_type: taskType.toLowerCase(),
      status: v.status.toUpperCase(),
      retrieved_data: data as unknown[] | null,
      error_details: details as string | null,
    },
  };
}

const empty = (v: unknown): boolean =>
  v === null || v === undefined || (Array.isArray(v) && v.length === 0) || v === '';

/**
 * Scores an answer (the stop answer's text, or an agent_response.json's parsed content). The
 * reference decides which keys count: an answer without one of them fails it (their comparator's
 * missing key); extra keys are ignored.
 */
export function evaluateAgentResponse(
  config: AgentResponseEvaluatorConfig,
  answer: unknown,
  derender?: (s: string) => string,
): EvaluatorResult {
  const name = 'AgentResponseEvaluator';
  const value = typeof answer === 'string' ? responseJson(answer) : answer;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      evaluator: name,
      score: 0,
      why: 'the answer is not a JSON object (task_type, status, retrieved_data)',
    };
  const actual = value as Record<string, unknown>;
  const expected = config.expected;
  const fails: string[] = [];
  const text = (raw: unknown): Normalized =>
    typeof raw === 'string' && raw.trim() !== '' ? typedValue('string', raw.trim()) : raw;
  const taskType = actual.task_type ?? actual.performed_operation;
  if (taskType === undefined) fails.push('agent_response: missing key task_type');
  else fails.push(...differences(text(taskType), typedValue('string', expected.task_type), 'task_type'));
  if (!('status' in actual)) fails.push('agent_response: missing key status');
  else fails.push(...differences(text(actual.status), typedValue('string', expected.status), 'status'));
  if ('retrieved_data' in expected && !('retrieved_data' in actual))
    fails.push('agent_response: missing key retrieved_data');
  else if (expected.task_type === 'retrieve' && !empty(expected.retrieved_data)) {
    const want = normalizeList(expected.retrieved_data, config.results_schema, { strict: true, derender });
    const got = actual.retrieved_data;
    if (empty(got) && !(typeof got === 'number' || typeof got === 'boolean'))
      fails.push(`retrieved_data: expected ${JSON.stringify(expected.retrieved_data)}, got none`);
    else
      fails.push(
        ...differences(
          normalizeList(got, config.results_schema, { strict: false, derender }),
          want,
          'retrieved_data',
          { ordered: config.ordered },
        ),
      );
  }
  if (fails.length > 0) return { evaluator: name, score: 0, why: fails.join('; ') };
  const data =
    expected.task_type === 'retrieve' && !empty(expected.retrieved_data) ? ', retrieved_data matches' : '';
  return {
    evaluator: name,
    score: 1,
    why: `task_type ${expected.task_type}, status ${expected.status}${data}`,
  };
}
