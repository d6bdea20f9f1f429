import { z } from 'zod';

/** The evaluator kinds WebArena's eval_types may list. */
export const EvalTypeSchema = z.enum(['string_match', 'url_match', 'program_html']);
export type EvalType = z.infer<typeof EvalTypeSchema>;

const ReferenceAnswersSchema = z
  .object({
    exact_match: z.string().optional(),
    must_include: z.array(z.string()).optional(),
    // WebArena's code treats the string "N/A" specially and asserts a list otherwise.
    fuzzy_match: z.union([z.literal('N/A'), z.array(z.string())]).optional(),
  })
  .strict();

const RequiredContentsSchema = z.union([
  z.object({ exact_match: z.string() }).strict(),
  z.object({ must_include: z.array(z.string()) }).strict(),
]);

export const ProgramHtmlTargetSchema = z.looseObject({
  url: z.string(),
  locator: z.string(),
  required_contents: RequiredContentsSchema,
  prep_actions: z.array(z.string()).optional(),
});
export type ProgramHtmlTarget = z.infer<typeof ProgramHtmlTargetSchema>;

export const WebArenaEvalSchema = z
  .looseObject({
    eval_types: z.array(EvalTypeSchema).min(1),
    reference_answers: ReferenceAnswersSchema.nullable(),
    reference_url: z.string().nullable(),
    program_html: z.array(ProgramHtmlTargetSchema).nullable(),
    string_note: z.string().optional(),
    url_note: z.string().optional(),
    reference_answer_raw_annotation: z.string().optional(),
  })
  .superRefine((ev, ctx) => {
    // Each listed evaluator needs its reference, or scoring would crash mid-run.
    if (ev.eval_types.includes('string_match') && ev.reference_answers === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['reference_answers'],
        message: 'string_match needs reference_answers',
      });
    }
    if (ev.eval_types.includes('url_match') && !ev.reference_url) {
      ctx.addIssue({ code: 'custom', path: ['reference_url'], message: 'url_match needs a reference_url' });
    }
    if (ev.eval_types.includes('program_html') && !ev.program_html?.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['program_html'],
        message: 'program_html needs at least one target',
      });
    }
    if (ev.url_note !== undefined && ev.url_note !== 'GOLD in PRED') {
      ctx.addIssue({
        code: 'custom',
        path: ['url_note'],
        message: `unknown url matching rule ${JSON.stringify(ev.url_note)} (only "GOLD in PRED" exists)`,
      });
    }
  });
export type WebArenaEval = z.infer<typeof WebArenaEvalSchema>;

/** One entry of WebArena's config_files/test.raw.json. */
export const WebArenaRawTaskSchema = z.looseObject({
  sites: z.array(z.string()).min(1),
  task_id: z.number().int().nonnegative(),
  require_login: z.boolean(),
  storage_state: z.string().nullable(),
  start_url: z.string().min(1),
  geolocation: z.unknown(),
  intent_template: z.string(),
  instantiation_dict: z.record(z.string(), z.unknown()),
  intent: z.string().min(1),
  require_reset: z.boolean(),
  eval: WebArenaEvalSchema,
  intent_template_id: z.number().int(),
});
export type WebArenaRawTask = z.infer<typeof WebArenaRawTaskSchema>;

/** One line of TTI's webarena_*_data.jsonl: WebArena's entry with hosts substituted, plus TTI's keys. */
export const TtiWebArenaTaskSchema = WebArenaRawTaskSchema.extend({
  web_name: z.string(),
  id: z.string(),
  ques: z.string(),
  web: z.string(),
});

/** One line of TTI's webvoyager_*.jsonl. */
export const WebVoyagerTaskSchema = z.looseObject({
  web_name: z.string().min(1),
  id: z.string().min(1),
  ques: z.string().min(1),
  web: z.string().url(),
});
