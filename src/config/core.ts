// The core config: what a user sets for a run (the policy, the loop's sizes and schedule, the
// tasks and suite, the workers, a checkpoint, a chat endpoint, which learner). Keys follow TTI's
// configs where TTI has one (policy_lm, lm_lr, batch_size, rollout_size, min_try, webarena_host,
// ...). Everything else belongs to the section of the part that reads it (sections/).
import { z } from 'zod';
import { defineSection } from './section.js';
import { NonNegativeInt, PositiveInt } from './sections/keys.js';

interface View {
  env: { suite: string };
  webarena_host: string | null;
}

export const core = defineSection({
  name: 'core',
  owner: 'src/config',
  about:
    'the run: policy, loop sizes and schedule, tasks and suite, workers, checkpoint, chat endpoint, learner',
  keys: {
    '': {
      run_name: z.string().min(1).default('tti'),
      seed: NonNegativeInt.default(0),
      /** the policy: 'tfjs' for the embedded trainable model, or a chat model's name */
      policy_lm: z.string().default('tfjs'),
      lm_lr: z.number().positive().default(1e-3),
      batch_size: PositiveInt.default(32),
      /** episodes collected per iteration */
      rollout_size: PositiveInt.default(64),
      /** the most kept trajectories the learner samples per iteration */
      actor_trajectories: PositiveInt.default(512),
      actor_epochs: PositiveInt.default(1),
      /** passes over the kept steps continue until at least this many updates (few kept steps at first) */
      min_updates: NonNegativeInt.default(50),
      capacity: PositiveInt.default(100000),
      iterations: PositiveInt.default(10),
      /** the interaction horizon per iteration (TTI: 10, then 20, 20, then 30); the last entry repeats */
      horizon_schedule: z.array(PositiveInt).min(1).default([10, 20, 20, 30]),
      eval_horizon: PositiveInt.default(30),
      eval_every: PositiveInt.default(1),
      /** test tasks in each periodic eval (a fixed seeded subset); 0 = the whole test split */
      eval_tasks: NonNegativeInt.default(60),
      /** how that subset is drawn: uniformly, or the same number from every template (WebArena-Lite's way) */
      eval_sampling: z.enum(['uniform', 'per_template']).default('uniform'),
      /** test-time re-check while collecting: answers before the min_try-th are not final */
      min_try: PositiveInt.default(1),
      /** the same, for eval episodes */
      eval_min_try: PositiveInt.default(1),
      /** stop after the iteration in which collection passes this many env steps (null: no budget) */
      budget_env_steps: PositiveInt.nullable().default(null),
      /**
       * the sampling temperature while collecting (TTI: 1.0): one value, or one per iteration as
       * horizon_schedule (the last entry repeats). Eval is greedy for the tfjs policy; a chat policy
       * samples its eval at the last entry, as TTI evaluates at its sampling temperature
       */
      temperature: z
        .union([z.number().nonnegative(), z.array(z.number().nonnegative()).min(1)], {
          error: 'expected a temperature ≥ 0, or a list of them (one per iteration)',
        })
        .default(1.0),
      /** external WebArena host (TTI's key); null runs the embedded MiniArena */
      webarena_host: z.string().nullable().default(null),
      log_level: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
    },
    tasks: {
      /** task files (WebArena raw JSON, TTI jsonl); null: MiniArena's suite in tasks/miniarena/ */
      train: z.string().nullable().default(null),
      test: z.string().nullable().default(null),
    },
    env: {
      /**
       * the task suite (src/suites, docs/envs.md): 'auto' (what tasks.* and webarena_host imply:
       * MiniArena by default), 'miniarena', 'webarena', 'tti-jsonl', 'webvoyager', 'miniwob'
       * (env.miniwob), or the path of a suite module of your own
       */
      suite: z.string().min(1).default('auto'),
    },
    workers: {
      env: NonNegativeInt.default(2),
      inference: NonNegativeInt.default(1),
      replay: z.union([z.literal(0), z.literal(1)]).default(1),
      learner: z.union([z.literal(0), z.literal(1)]).default(1),
    },
    model: {
      /** start from this checkpoint folder instead of a fresh init (eval, fine-tuning) */
      checkpoint: z.string().nullable().default(null),
    },
    /** The chat-model policy (policy_lm other than 'tfjs'): an OpenAI-compatible endpoint such as vLLM's. */
    chat: {
      /** e.g. http://127.0.0.1:8000/v1 (vLLM's `vllm serve`) */
      base_url: z.string().url().default('http://127.0.0.1:8000/v1'),
      /** the environment variable holding the API key (vLLM's --api-key); unset or empty sends none */
      api_key_env: z.string().default('OPENAI_API_KEY'),
      /** prompt templates: 'webarena', 'webvoyager' (files in prompts/) or a path to a JSON file */
      prompt: z.string().default('webarena'),
      top_p: z.number().gt(0).lte(1).default(0.95),
      max_tokens: PositiveInt.default(1024),
      /** screenshots kept in the context, newest first (TTI keeps 3) */
      max_images: NonNegativeInt.default(3),
      /** requests in flight per inference worker */
      concurrency: PositiveInt.default(8),
      /** one request's cap; a timed-out request is retried */
      timeout_ms: PositiveInt.default(120000),
      /** retries after a 429, a 5xx, a timeout or a lost connection */
      max_retries: NonNegativeInt.default(4),
      backoff_initial_ms: NonNegativeInt.default(500),
      backoff_max_ms: NonNegativeInt.default(20000),
    },
    /** How the learner trains: the embedded tfjs pass, or a command of the user's each iteration. */
    learner: {
      kind: z.enum(['tfjs', 'external']).default('tfjs'),
      /**
       * external: argv run each iteration; {data} {out} {iteration} {version} {model} {run_dir} {project} are
       * replaced (the SFT file, a fresh output dir, the iteration, the new policy version, the current model)
       */
      command: z.array(z.string()).default([]),
      /**
       * the learner objective, by the name src/model/objective.ts registers it under: filtered_bc,
       * TTI's cross-entropy on the steps of successful trajectories only (section filtered-bc); awr,
       * advantage-weighted regression as DigiRL trains (section awr)
       */
      algorithm: z.enum(['filtered_bc', 'awr']).default('filtered_bc'),
    },
  },
  rules: [
    // Before suites were plug-ins, env.suite webarena (then the default) meant "the task files";
    // now it means WebArena's own containers. Say so up front rather than let every env worker fail.
    {
      path: ['env', 'suite'],
      broken: (c: View) => c.env.suite === 'webarena' && c.webarena_host === null,
      message:
        "env.suite webarena runs WebArena's own containers: set webarena_host, or use env.suite auto " +
        '(or miniarena) for the embedded sites. A run directory written by tti before suites were ' +
        'plug-ins says webarena where it meant MiniArena: resume it with --set env.suite=auto',
    },
  ],
});
