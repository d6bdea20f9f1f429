// WebArena-Verified's agent-logs layout, both ways: OUT/<task_id>/agent_response.json (the agent's
// final response) and OUT/<task_id>/network.har (its network trace), so that their
// `webarena-verified eval-tasks` scores a tti run offline and `tti-run score` scores anyone's.
// tti adds OUT/tti-hosts.json, the placeholders its URLs stand for, so its own logs need no flags.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type HarLog, parseAgentResponse } from '../../envs/index.js';
import type { TaskEvidence } from './score.js';

export const RESPONSE_FILE = 'agent_response.json';
export const TRACE_FILE = 'network.har';
export const HOSTS_FILE = 'tti-hosts.json';

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * One episode's logs. The response is written as the agent gave it: its JSON when the answer is
 * JSON, else the answer's text as a JSON string (which a scorer then calls malformed).
 */
export function writeAgentLogs(
  dir: string,
  taskId: string,
  answer: unknown,
  har: HarLog,
  hosts: ReadonlyMap<string, string>,
): string {
  const taskDir = path.join(dir, taskId);
  mkdirSync(taskDir, { recursive: true });
  writeAtomic(path.join(taskDir, RESPONSE_FILE), `${JSON.stringify(answer, null, 2)}\n`);
  writeAtomic(path.join(taskDir, TRACE_FILE), JSON.stringify(har));
  const hostsFile = path.join(dir, HOSTS_FILE);
  if (!existsSync(hostsFile))
    writeAtomic(hostsFile, `${JSON.stringify(Object.fromEntries(hosts), null, 2)}\n`);
  return taskDir;
}

const Header = z.object({ name: z.string(), value: z.string() });
/** What of HAR 1.2 the evaluator reads; the rest may be anything. */
const HarSchema = z.looseObject({
  log: z.looseObject({
    entries: z.array(
      z.looseObject({
        request: z.looseObject({
          method: z.string().min(1),
          url: z.string().min(1),
          headers: z.array(Header),
          postData: z
            .looseObject({ mimeType: z.string().default(''), text: z.string().optional() })
            .optional(),
        }),
        response: z.looseObject({
          status: z.number().int(),
          headers: z.array(Header),
          content: z.looseObject({
            mimeType: z.string().default(''),
            text: z.string().optional(),
            encoding: z.string().optional(),
          }),
        }),
        _resourceType: z.string().optional(),
      }),
    ),
  }),
});

function fieldPath(p: readonly PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');
}

/** A task's response and trace as read from `dir/<taskId>/`, each problem naming the file and field. */
export function readAgentLogs(dir: string, taskId: string, needsTrace: boolean): TaskEvidence {
  const responseFile = path.join(dir, taskId, RESPONSE_FILE);
  const traceFile = path.join(dir, taskId, TRACE_FILE);
  let response: TaskEvidence['response'];
  if (!existsSync(responseFile)) response = { error: `${responseFile}: no such file` };
  else {
    try {
      const value = JSON.parse(readFileSync(responseFile, 'utf8')) as unknown;
      // an answer kept as text may still hold the JSON (in a ``` block, say): the evaluator reads it
      response = { value: typeof value === 'string' ? tryJson(value) : value };
    } catch (e) {
      response = { error: `${responseFile}: not JSON (${(e as Error).message})` };
    }
  }
  if ('value' in response && (response.value === null || typeof response.value !== 'object'))
    response = { error: `${responseFile}: not a response object (task_type, status, retrieved_data)` };
  if ('value' in response) {
    const named = namedFieldError(response.value);
    if (named) response = { error: `${responseFile}: ${named}` };
  }
  let trace: TaskEvidence['trace'] = null;
  if (existsSync(traceFile)) {
    try {
      const r = HarSchema.safeParse(JSON.parse(readFileSync(traceFile, 'utf8')));
      trace = r.success
        ? { har: r.data as unknown as HarLog }
        : {
            error: `${traceFile}: field ${fieldPath(r.error.issues[0]?.path ?? []) || '(top)'}: ${r.error.issues[0]?.message}`,
          };
    } catch (e) {
      trace = { error: `${traceFile}: not JSON (${(e as Error).message})` };
    }
  } else if (needsTrace) trace = { error: `${traceFile}: no such file` };
  return { response, trace };
}

function tryJson(text: string): unknown {
  const block = /```(?:json)?\s*\n?([\s\S]*?)\n?```/.exec(text);
  try {
    return JSON.parse(block ? block[1]!.trim() : text.trim()) as unknown;
  } catch {
    return text;
  }
}

function namedFieldError(value: unknown): string | null {
  const r = parseAgentResponse(value);
  return 'error' in r ? r.error : null;
}

/** The placeholders a folder's URLs stand for (tti's own logs), or null. */
export function readLoggedHosts(dir: string): Map<string, string> | null {
  const file = path.join(dir, HOSTS_FILE);
  if (!existsSync(file)) return null;
  const parsed = z.record(z.string(), z.string()).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: expected { "__PLACEHOLDER__": "base URL", … }`);
  return new Map(Object.entries(parsed.data));
}
