// WebArena-Verified's task entries and evaluator configs (their types/task.py, as the dataset in
// ../shared/data/webarena-verified uses it), and the agent response an agent gives.
import { z } from 'zod';

export const TASK_TYPES = ['retrieve', 'mutate', 'navigate'] as const;
export const STATUSES = [
  'SUCCESS',
  'ACTION_NOT_ALLOWED_ERROR',
  'PERMISSION_DENIED_ERROR',
  'NOT_FOUND_ERROR',
  'DATA_VALIDATION_ERROR',
  'UNKNOWN_ERROR',
] as const;

const JsonObject = z.record(z.string(), z.unknown());

export const AgentResponseEvaluatorSchema = z.strictObject({
  evaluator: z.literal('AgentResponseEvaluator'),
  ordered: z.boolean().default(false),
  results_schema: JsonObject,
  expected: z.strictObject({
    task_type: z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(z.enum(TASK_TYPES)),
    status: z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(STATUSES)),
    retrieved_data: z.array(z.unknown()).nullable().optional(),
    error_details: z.string().nullable().optional(),
  }),
});
export type AgentResponseEvaluatorConfig = z.infer<typeof AgentResponseEvaluatorSchema>;

const UrlSpec = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const NetworkEventSpecSchema = z.strictObject({
  url: UrlSpec,
  headers: JsonObject.nullable().optional(),
  query_params: z.record(z.string(), z.array(z.string().nullable())).nullable().optional(),
  post_data: JsonObject.nullable().optional(),
  response_content: JsonObject.nullable().optional(),
  response_cookies: JsonObject.nullable().optional(),
  // their defaults: a navigation (GET) answered 200
  response_status: z.number().int().default(200),
  http_method: z.string().default('GET'),
});
export type NetworkEventSpec = z.infer<typeof NetworkEventSpecSchema>;

export const NetworkEventEvaluatorSchema = z.strictObject({
  evaluator: z.literal('NetworkEventEvaluator'),
  expected: NetworkEventSpecSchema,
  last_event_only: z.boolean().default(true),
  ignored_query_params: z.array(z.string()).nullable().optional(),
  ignored_query_params_patterns: z.array(z.string()).nullable().optional(),
  decode_base64_query: z.boolean().default(false),
  query_params_schema: JsonObject.nullable().optional(),
  post_data_schema: JsonObject.nullable().optional(),
  ignored_post_data_params_patterns: z.array(z.string()).nullable().optional(),
  should_not_exist: z.boolean().default(false),
});
export type NetworkEventEvaluatorConfig = z.infer<typeof NetworkEventEvaluatorSchema>;

export const VerifiedEvaluatorSchema = z.discriminatedUnion('evaluator', [
  AgentResponseEvaluatorSchema,
  NetworkEventEvaluatorSchema,
]);
export type VerifiedEvaluatorConfig = z.infer<typeof VerifiedEvaluatorSchema>;

/** One entry of webarena-verified.json. */
export const VerifiedTaskSchema = z
  .strictObject({
    sites: z.array(z.string()).min(1),
    task_id: z.number().int().nonnegative(),
    intent_template_id: z.number().int(),
    start_urls: z.array(z.string().min(1)).min(1),
    intent: z.string().min(1),
    intent_template: z.string().min(1),
    instantiation_dict: JsonObject,
    eval: z.array(VerifiedEvaluatorSchema).min(1),
    revision: z.number().int().min(1),
  })
  .refine((t) => t.eval.some((e) => e.evaluator === 'AgentResponseEvaluator'), {
    path: ['eval'],
    message: 'eval must contain an AgentResponseEvaluator',
  });
export type VerifiedTask = z.infer<typeof VerifiedTaskSchema>;

/** The Hard subset's file: `{ description, task_ids }`. */
export const VerifiedSubsetSchema = z.looseObject({
  description: z.string().nullable().optional(),
  task_ids: z.array(z.number().int().nonnegative()).min(1),
});

/** The agent's final response (their FinalAgentResponse; `performed_operation` is the old name of task_type). */
export interface AgentResponse {
  task_type: string;
  status: string;
  retrieved_data: unknown[] | null;
  error_details: string | null;
}

/** The parts of a task its evaluators need. */
export interface VerifiedEvalTask {
  id: string;
  sites: readonly string[];
  eval: readonly VerifiedEvaluatorConfig[];
}
