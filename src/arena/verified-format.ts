// MiniArena's suite in WebArena-Verified's format (`tti-run tasks export --format verified`), so
// their evaluators run end to end on MiniArena's real pages: a retrieve task's answer as their
// AgentResponseEvaluator's retrieved_data, a navigate task (url_match) as a navigate response and
// a check of its last navigation, and a site-changing task (program_html) as a mutate response
// and one NetworkEventEvaluator per request its template says it sends (url, POST, the form's
// fields, the redirect the site answers with). Ids, intents and splits are those of the task files.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type VerifiedTask, VerifiedTaskSchema } from '../envs/index.js';
import { type GenerateOptions, generateTasks, TASKS_DIR } from './generate-tasks.js';
import type { MiniArenaTask, SiteRequest } from './templates/types.js';

/** Where `tti-run tasks export --format verified` writes train.json and test.json by default. */
export const VERIFIED_TASKS_DIR = path.join(TASKS_DIR, 'verified');

/** What MiniArena's sites answer a form's POST with. */
const FORM_REDIRECT = 303;

type Schema = Record<string, unknown>;

const NUMBER = /^-?\d+(\.\d+)?$/;
const SHOWN_DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;

/**
 * A string_match reference as their typed data: amounts the annotation shows in dollars are
 * currency, bare numbers numbers, dates as the sites show them dates, anything else (a mixed list
 * too) strings. must_include's items become the list (no item missing, none extra).
 */
function retrieved(t: MiniArenaTask): { schema: Schema; data: unknown[] } {
  const ref = t.eval.reference_answers ?? {};
  const items = ref.exact_match !== undefined ? [ref.exact_match] : (ref.must_include ?? []);
  if (items.length === 0) throw new Error(`task ${t.task_id}: a string_match task with no reference answer`);
  const raw = t.eval.reference_answer_raw_annotation ?? '';
  const list = (items: Schema) => ({ type: 'array', items });
  if (items.every((i) => NUMBER.test(i)))
    return raw.includes('$')
      ? { schema: list({ type: 'number', format: 'currency' }), data: items.map(Number) }
      : { schema: list({ type: 'number' }), data: items.map(Number) };
  if (items.every((i) => SHOWN_DATE.test(i)))
    return { schema: list({ type: 'string', format: 'date' }), data: items };
  return { schema: list({ type: 'string' }), data: items };
}

function response(taskType: string, schema: Schema, data: unknown[] | null) {
  return {
    evaluator: 'AgentResponseEvaluator' as const,
    results_schema: schema,
    expected: { task_type: taskType, status: 'SUCCESS', retrieved_data: data },
  };
}

function networkCheck(r: SiteRequest) {
  return {
    evaluator: 'NetworkEventEvaluator' as const,
    // a request sent once per item: any of them may be this one
    last_event_only: r.several !== true,
    expected: {
      url: r.url,
      http_method: 'POST',
      ...(Object.keys(r.post_data).length > 0 ? { post_data: r.post_data } : {}),
      response_status: FORM_REDIRECT,
    },
  };
}

/** One MiniArena task (generated `withNetwork`) as an entry of their task file. */
export function verifiedEntryOf(t: MiniArenaTask): VerifiedTask {
  const types = t.eval.eval_types;
  let evals: unknown[];
  if (types.includes('program_html')) {
    if (!t.network || t.network.length === 0)
      throw new Error(`task ${t.task_id} changes its site but names no request (generate it withNetwork)`);
    evals = [response('mutate', { type: 'null' }, null), ...t.network.map(networkCheck)];
  } else if (types.includes('url_match'))
    evals = [
      response('navigate', { type: 'null' }, null),
      { evaluator: 'NetworkEventEvaluator', expected: { url: t.eval.reference_url } },
    ];
  else {
    const { schema, data } = retrieved(t);
    evals = [response('retrieve', schema, data)];
  }
  const entry = {
    sites: t.sites,
    task_id: t.task_id,
    intent_template_id: t.intent_template_id,
    start_urls: [t.start_url],
    intent: t.intent,
    intent_template: t.intent_template,
    instantiation_dict: t.instantiation_dict,
    eval: evals,
    revision: 1,
  };
  const parsed = VerifiedTaskSchema.safeParse(entry);
  if (!parsed.success)
    throw new Error(`task ${t.task_id}: not a valid verified entry: ${parsed.error.issues[0]?.message}`);
  // the entry as written (their defaults are filled in by whoever reads it)
  return entry as unknown as VerifiedTask;
}

/** MiniArena's suite (the task files' tasks, same ids and splits) in their format. */
export function verifiedSuite(options: Pick<GenerateOptions, 'seed'> = {}): {
  train: VerifiedTask[];
  test: VerifiedTask[];
} {
  const suite = generateTasks({ ...options, oracleLengths: null, withNetwork: true });
  return { train: suite.train.map(verifiedEntryOf), test: suite.test.map(verifiedEntryOf) };
}

/** Writes `dir`/train.json and `dir`/test.json in their format (each atomically). */
export function writeVerifiedTaskFiles(options: { seed?: number; dir?: string } = {}): {
  train: string;
  test: string;
  counts: { train: number; test: number };
} {
  const dir = options.dir ?? VERIFIED_TASKS_DIR;
  mkdirSync(dir, { recursive: true });
  const suite = verifiedSuite(options.seed === undefined ? {} : { seed: options.seed });
  const out = { train: path.join(dir, 'train.json'), test: path.join(dir, 'test.json') };
  for (const split of ['train', 'test'] as const) {
    const tmp = `${out[split]}.tmp-${process.pid}`;
    writeFileSync(tmp, `${JSON.stringify(suite[split], null, 2)}\n`);
    renameSync(tmp, out[split]);
  }
  return { ...out, counts: { train: suite.train.length, test: suite.test.length } };
}
