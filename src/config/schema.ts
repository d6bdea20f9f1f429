// The run configuration: one schema with defaults. Keys follow TTI's configs where TTI has one
// (policy_lm, lm_lr, batch_size, rollout_size, min_try, webarena_host, ...); the rest are ours.
import { z } from 'zod';

const PositiveInt = z.number().int().positive();
const NonNegativeInt = z.number().int().nonnegative();

export const SupervisorConfig = z
  .strictObject({
    heartbeat_interval_ms: PositiveInt.default(500),
    /** a worker silent for this long is killed and restarted */
    heartbeat_timeout_ms: PositiveInt.default(5000),
    /** how long a spawned worker has to register */
    register_timeout_ms: PositiveInt.default(30000),
    /** restart intensity (OTP's intensity/period): more than max_restarts within restart_window_s stops the run */
    max_restarts: NonNegativeInt.default(5),
    restart_window_s: z.number().positive().default(60),
    backoff_initial_ms: NonNegativeInt.default(100),
    backoff_max_ms: NonNegativeInt.default(5000),
    /** how long in-flight work may take to finish on a graceful stop before processes are killed */
    shutdown_timeout_ms: PositiveInt.default(10000),
  })
  .prefault({});

export const TransportConfig = z
  .strictObject({
    /** ipc:// sockets in the run directory (default), or tcp:// on `host` (CURVE when not loopback) */
    kind: z.enum(['ipc', 'tcp']).default('ipc'),
    host: z.string().default('127.0.0.1'),
    linger_ms: NonNegativeInt.default(200),
    /**
     * `tcp://ADDR:PORT` (`tti-run train --listen`): the run's sockets listen on ADDR, control at PORT
     * and the rest on the ports after it, for workers on other machines; always CURVE, every client
     * key checked against the run's allow-list. null: the run is reachable from this machine only
     */
    listen: z
      .string()
      .regex(/^tcp:\/\/(\[[0-9a-fA-F:]+\]|[^:/\s]+):([1-9][0-9]{0,4})$/, {
        error: 'expected tcp://ADDR:PORT, e.g. tcp://0.0.0.0:5555',
      })
      .refine((v) => Number(v.slice(v.lastIndexOf(':') + 1)) <= 65000, {
        error: 'the port must leave room for the ports after it (at most 65000)',
      })
      .nullable()
      .default(null),
  })
  .prefault({});

/** Workers expected to join from other machines (`tti-run worker --join`), by role. */
export const RemoteConfig = z
  .strictObject({
    env: NonNegativeInt.default(0),
    inference: NonNegativeInt.default(0),
  })
  .prefault({});

export const WorkersConfig = z
  .strictObject({
    env: NonNegativeInt.default(2),
    inference: NonNegativeInt.default(1),
    replay: z.union([z.literal(0), z.literal(1)]).default(1),
    learner: z.union([z.literal(0), z.literal(1)]).default(1),
    /** fault-injection workers, for tests and chaos runs */
    fault: NonNegativeInt.default(0),
  })
  .prefault({});

export const FaultConfig = z
  .strictObject({
    /** a fault worker crashes this long after it registers (null: only on command) */
    crash_after_ms: NonNegativeInt.nullable().default(null),
    crash_message: z.string().default('injected crash'),
    /** a fault worker starts its role this long after registering (a slow start, as an env worker launching its browser) */
    start_delay_ms: NonNegativeInt.default(0),
  })
  .prefault({});

/** MiniWoB++ (env.suite: miniwob): where its html/ folder is, which tasks, how many seeds. */
export const MiniwobConfig = z
  .strictObject({
    /** a served copy of MiniWoB++'s html/ folder (BrowserGym's MINIWOB_URL), e.g. http://localhost:8000/html/ */
    url: z.string().url().nullable().default(null),
    /** a local html/ folder; each env worker serves it on loopback */
    dir: z.string().min(1).nullable().default(null),
    /** task names (html/miniwob/<name>.html), or 'all' (needs dir) */
    tasks: z.union([z.literal('all'), z.array(z.string().min(1)).min(1)]).default('all'),
    /** training seeds per task (drawn uniformly); disjoint from the test seeds 0…eval_episodes-1 */
    train_seeds: PositiveInt.default(100),
    /** test episodes per task: seeds 0…eval_episodes-1 */
    eval_episodes: PositiveInt.default(10),
    /** core.EPISODE_MAX_TIME: large, so the horizon and not the page's 10–30 s timer ends an episode (BrowserGym) */
    episode_max_time_ms: PositiveInt.default(1_000_000),
    /** 'browsergym': BrowserGym's 332×214 page; 'webarena': 1280×720 */
    viewport: z.enum(['browsergym', 'webarena']).default('browsergym'),
    /** offer `stop [answer]` (ANSWER): off, as BrowserGym's MiniWoB++ action set, since the page ends each episode */
    offer_stop: z.boolean().default(false),
    /** offer going back/forward, goto and tabs: off, as BrowserGym's MiniWoB++ action set (a task is one page) */
    offer_navigation: z.boolean().default(false),
    /** hide MiniWoB++'s human display (reward, timer, episode count, the instruction) from the page, as BrowserGym does */
    remove_human_display: z.boolean().default(true),
  })
  .prefault({});

export const EnvConfig = z
  .strictObject({
    /**
     * the task suite (src/suites, docs/envs.md): 'auto' (what tasks.* and webarena_host imply:
     * MiniArena by default), 'miniarena', 'webarena', 'tti-jsonl', 'webvoyager', 'miniwob'
     * (env.miniwob), or the path of a suite module of your own
     */
    suite: z.string().min(1).default('auto'),
    /** a suite module's own settings, as it reads them */
    suite_options: z.record(z.string(), z.unknown()).default({}),
    miniwob: MiniwobConfig,
    /**
     * print BrowserGym's `clickable` and `visible` on each line of the tree text; null: the suite's
     * choice (on for MiniWoB++, off for task files, whose text stays WebArena's byte for byte)
     */
    observation_flags: z.boolean().nullable().default(null),
    /** how replies are read: TTI's "Thought: … Action: …" or WebArena's ``` blocks */
    action_format: z.enum(['tti', 'webarena']).default('tti'),
    /** cap on one step (act, wait for load, observe) */
    action_timeout_ms: PositiveInt.default(30000),
    /** cap on a whole episode */
    episode_timeout_ms: PositiveInt.default(600000),
    /**
     * JPEG screenshots in episode records (for `tti-run view`): true for every episode, 'eval' for
     * eval episodes only, false for none. A screenshot costs ≈30–100 ms on a ≈120 ms step
     * (bench/screenshot.bench.ts), so collection episodes go without unless asked.
     */
    screenshot: z
      .union([z.boolean(), z.literal('eval')], { error: 'expected true, false or "eval"' })
      .default('eval'),
    /**
     * how a Type action enters its text: 'keys', a key press per character as WebArena does, or
     * 'insert', the text as one input event then Enter (≈half the time; for sites that read their
     * fields' values, as MiniArena's do — configs/miniarena.yaml sets it)
     */
    typing: z.enum(['keys', 'insert']).default('keys'),
    /**
     * start each episode in the previous one's browser context and tab, cleaned (cookies, storage,
     * other tabs, history), not a new context: no new renderer process per episode. Only for hosts
     * whose state lives on the server and in cookies, as MiniArena's (configs/miniarena.yaml sets it)
     */
    reuse_context: z.boolean().default(false),
    /** write each episode's record (steps, verdict) under RUN_DIR/episodes/ */
    record_episodes: z.boolean().default(true),
    /** how long an env worker waits for inference to answer one step */
    act_timeout_ms: PositiveInt.default(120000),
  })
  .superRefine((env, ctx) => {
    if (env.suite !== 'miniwob') return;
    const { url, dir } = env.miniwob;
    if ((url === null) === (dir === null))
      ctx.addIssue({
        code: 'custom',
        path: ['miniwob', url === null ? 'dir' : 'url'],
        message:
          url === null
            ? "env.suite is miniwob: set env.miniwob.dir (a local copy of MiniWoB++'s html/ folder) or env.miniwob.url (a served one)"
            : 'set only one of env.miniwob.url and env.miniwob.dir',
      });
  })
  .prefault({});

export const TasksConfig = z
  .strictObject({
    /** task files (WebArena raw JSON, TTI jsonl); null: MiniArena's suite in tasks/miniarena/ */
    train: z.string().nullable().default(null),
    test: z.string().nullable().default(null),
  })
  .prefault({});

export const ModelConfig = z
  .strictObject({
    /** the TensorFlow.js backend: the best that loads (gpu → node → wasm → cpu), or one forced */
    backend: z.enum(['auto', 'gpu', 'node', 'wasm', 'cpu']).default('auto'),
    /** start from this checkpoint folder instead of a fresh init (eval, fine-tuning) */
    checkpoint: z.string().nullable().default(null),
    /**
     * where a page is featurized for the trainable policy: 'env', by the env worker that has it,
     * so the inference worker runs only the network (docs/model.md, "Speed"); 'inference', by the
     * inference worker from the raw observation
     */
    featurize: z.enum(['env', 'inference']).default('env'),
    /** dynamic batching in the inference worker */
    max_batch: PositiveInt.default(16),
    max_wait_ms: NonNegativeInt.default(5),
    /**
     * nucleus sampling while collecting: draw from the most likely candidate actions whose
     * probabilities first reach this share (TTI's vLLM samples with top_p 0.95); 1 draws from all
     */
    top_p: z.number().gt(0).lte(1).default(1),
    /** global gradient-norm clip (TTI's max_grad_norm is 0.01 for a 12B model; ours is tiny) */
    clip_norm: z.number().positive().default(1.0),
    /**
     * weight of the penalty on the learned score's square (BcTrainer's scorePenalty): keeps what a
     * few kept trajectories teach from pushing whole kinds of action down on every other task
     * (docs/model.md, "Learning from a few successes online"); 0 turns it off
     */
    score_penalty: z.number().nonnegative().default(0.1),
    /**
     * word dropout in the online learner (encode.ts dropTokens; `tti-run pretrain --word-dropout`
     * is its pretraining twin): each page and task token is hidden with this probability, so a
     * few kept trajectories teach the exact-match facts that carry to other instances rather than
     * the words of the ones kept; 0 turns it off
     */
    word_dropout: z.number().min(0).max(0.9).default(0),
    /** how many checkpoints the learner keeps */
    keep_checkpoints: PositiveInt.default(3),
    /**
     * a fresh policy's prior (src/model/prior.ts): null is uniform per action kind; else a JSON file
     * of kind weights and fact weights, such as `tti-run pretrain --prior-only` fits to demos.
     * Checked when a run starts; like model.checkpoint, it must be on every machine of the run
     */
    prior: z.string().nullable().default(null),
  })
  .prefault({});

/** The chat-model policy (policy_lm other than 'tfjs'): an OpenAI-compatible endpoint such as vLLM's. */
export const ChatConfig = z
  .strictObject({
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
  })
  .prefault({});

/** Who grades answers that need a model: WebVoyager's success judge, WebArena's fuzzy_match / ua_match. */
export const JudgeConfig = z
  .strictObject({
    /** 'none': such answers are unscored; 'policy': the policy's endpoint and model (as TTI does); 'endpoint': the keys below */
    kind: z.enum(['none', 'policy', 'endpoint']).default('none'),
    base_url: z.string().url().nullable().default(null),
    model: z.string().nullable().default(null),
    api_key_env: z.string().default('OPENAI_API_KEY'),
    /** judge prompt for WebVoyager answers: 'webvoyager_judge' (prompts/) or a path to a text file */
    prompt: z.string().default('webvoyager_judge'),
    max_tokens: PositiveInt.default(512),
  })
  .prefault({});

/** How the learner trains: the embedded tfjs BC pass, or a command of the user's each iteration. */
export const LearnerConfig = z
  .strictObject({
    kind: z.enum(['tfjs', 'external']).default('tfjs'),
    /**
     * external: argv run each iteration; {data} {out} {iteration} {version} {model} {run_dir} are
     * replaced (the SFT file, a fresh output dir, the iteration, the new policy version, the current model)
     */
    command: z.array(z.string()).default([]),
    /** how inference moves to the result: a new served model name, or vLLM's /v1/load_lora_adapter */
    serve: z.enum(['model_name', 'lora']).default('model_name'),
    /** the name the result is served under; {version} {iteration} are replaced */
    model_name: z.string().default('tti-v{version}'),
    /** the images in the exported file: written next to it as files, or inline data URLs */
    images: z.enum(['files', 'data_url']).default('files'),
    /** cap on one run of the command */
    timeout_ms: PositiveInt.default(24 * 3600 * 1000),
    /**
     * filtered_bc: TTI, cross-entropy on the steps of successful trajectories only; awr:
     * advantage-weighted regression as DigiRL trains (src/model/awr.ts): replay keeps failures
     * too, a critic learns the return from every step, and each step counts by its advantage
     */
    algorithm: z.enum(['filtered_bc', 'awr']).default('filtered_bc'),
    /**
     * demonstrations mixed into every iteration's training: a file `tti-run pretrain --demos`
     * reads (trajectories or export-sft lines; a pretrain run's demos.jsonl), so that fine-tuning
     * from a pretrained checkpoint goes on imitating its demos while it learns from what it keeps
     * (src/model/demo-mix.ts); null trains on replay's sample alone, as TTI does
     */
    demos: z.string().min(1).nullable().default(null),
    /** with demos: how many of them (drawn without replacement, seeded) join each iteration's training */
    demos_per_iteration: PositiveInt.default(64),
    /**
     * filtered_bc: leave out of imitation a kept trajectory's edits (Type, Select) that a later edit
     * of the same field on the same page replaced (src/model/overwritten.ts); they stay in history
     */
    skip_overwritten_edits: z.boolean().default(true),
    /**
     * filtered_bc: imitate a kept trajectory without its detours and tours, the link clicks,
     * searches and going back that led where an earlier page already led (src/model/detours.ts;
     * one-page tasks never leave their page, so nothing of theirs is cut)
     */
    cut_detours: z.boolean().default(true),
    /** awr: filter (DigiRL's: train on the steps whose advantage exceeds awr_threshold) or exp (exp(A/β), capped) */
    awr_weighting: z.enum(['filter', 'exp']).default('filter'),
    /** awr: λ of DigiRL's advantage, λ^(steps left)·R + (1−λ)·(the critic's one-step change) */
    awr_lambda: z.number().min(0).max(1).default(0.9),
    /** awr, filter: the advantage a step must exceed */
    awr_threshold: z.number().default(0.05),
    /** awr, exp: β in exp(A/β) */
    awr_temperature: z.number().positive().default(0.3),
    /** awr, exp: cap on one step's weight */
    awr_max_weight: z.number().positive().default(20),
  })
  .prefault({});

/** How collection episodes are run (issue 23): TTI's episodes, or a search over each task's states. */
export const CollectConfig = z
  .strictObject({
    /**
     * none: one episode per task assignment (TTI); branch: the episode, then rollouts that go back
     * to pages found earlier (a reset and a replay of the way there) and act from them, until a
     * success or the budget (src/search)
     */
    search: z.enum(['none', 'branch']).default('none'),
    /** env steps one search may spend on its task, replayed steps included */
    search_budget: PositiveInt.default(60),
    /**
     * what a successful search keeps: from_start (its success from the task's start: TTI's
     * filtered BC) or exploratory (ExACT's exploratory learning: every rollout in the order taken,
     * dead ends included, with GoBack steps from each up to where the next went on;
     * src/search/exploratory.ts). Needs collect.search branch and a suite that offers navigation
     */
    search_keep: z.enum(['from_start', 'exploratory']).default('from_start'),
    /** steps the policy acts from a page gone back to, before the search goes back again */
    search_burst: PositiveInt.default(5),
    /**
     * how a search draws the page to go back to: visits (Go-Explore's counts: seldom chosen, seldom
     * seen), value (those weights times exp((V − best V) / search_value_temperature), V the
     * critic's estimate the inference worker sends with each action; train it with learner.algorithm
     * awr) or progress (the same with P, the share of the task's content words the way there acted
     * on or typed plus the share the page shows, 0–2: needs no training; temperature
     * search_progress_temperature)
     */
    search_rank: z.enum(['visits', 'value', 'progress']).default('visits'),
    search_value_temperature: z.number().positive().default(0.1),
    search_progress_temperature: z.number().positive().default(0.1),
    /**
     * Go back to a page whose way there sent only safe requests (GET, HEAD, OPTIONS) with one
     * goto to its URL on the reset host, not a replay of the whole way: one env step instead of
     * the way's length. Checked on arrival (a page whose URL does not say its state is replayed).
     * Tasks without navigation (MiniWoB++) always replay.
     */
    search_by_url: z.boolean().default(false),
    /**
     * On every page of a collection episode, score each answer the page offers as if the episode
     * stopped with it, where the task's verdict reads only the answer and the URL (string_match
     * without a judge, url_match; src/envs/evaluators/stop-probe.ts); the first page where one
     * succeeds ends the episode with it (the shortest such answer). A pass counts only beside what
     * the task names (src/model/evidence.ts), for a count under 100 only in the task's row and
     * read from a text that names what the task counts ("5 comments"), never by luck. Probes are
     * evaluator calls, not env steps. A branch search probes too, in every rollout. Off: TTI's
     * episodes, where only the policy stops.
     */
    stop_probes: z.boolean().default(false),
    /**
     * With stop_probes, probe tasks whose verdict reads only the sites' state too (program_html on
     * pages it names), in a second tab of the episode, after each action that can change a site: a
     * state that passes ends the episode with a stop, and where it fails no stop is drawn, so the
     * episode acts on. Off by default: on MiniArena from random init it found no action task in
     * 4 quick-preset iterations and made each 2–3× slower (experiments/action-tasks).
     */
    state_probes: z.boolean().default(false),
  })
  .prefault({});

export const Config = z
  .strictObject({
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
    /**
     * how collection draws training tasks: uniformly with replacement (TTI), or by learnability
     * (DigiRL's curriculum): a task group (its template, else the task) ∝ p(1−p) of its success rate
     * so far, so tasks solved about half the time are drawn most (src/curriculum/learnability.ts);
     * or unsolved first: a group ∝ 1 − p of its recent success rate (src/curriculum/unsolved.ts)
     */
    task_sampling: z.enum(['uniform', 'learnability', 'unsolved']).default('uniform'),
    /** test-time re-check while collecting: answers before the min_try-th are not final */
    min_try: PositiveInt.default(1),
    /** the same, for eval episodes */
    eval_min_try: PositiveInt.default(1),
    /**
     * test-time search in eval (issue 23): none (one greedy episode per task) or branch (the greedy
     * episode, then rollouts sampled from pages gone back to, until eval_search_budget env steps;
     * the finished rollout picked by eval_search_pick is the task's episode; no verdict is read)
     */
    eval_search: z.enum(['none', 'branch']).default('none'),
    /** env steps one test-time search may spend on its task, replayed steps included */
    eval_search_budget: PositiveInt.default(60),
    /**
     * which finished rollout a test-time search keeps: the highest mean log-probability of its
     * actions under the policy (likelihood; the tfjs policy), or the critic's value on its last page
     * acted on (value; a critic trained by learner.algorithm awr)
     */
    eval_search_pick: z.enum(['likelihood', 'value']).default('likelihood'),
    /** the temperature a test-time search samples its later rollouts at */
    eval_search_temperature: z.number().positive().default(1),
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
    /**
     * factors the collection's episodes take in turn (episode k: temperature × spread[k mod n]);
     * [1] samples every episode at the iteration's temperature, as TTI does
     */
    temperature_spread: z
      .array(z.number().positive(), { error: 'expected a list of factors > 0, e.g. [1, 0.5]' })
      .min(1)
      .default([1]),
    /** external WebArena host (TTI's key); null runs the embedded MiniArena */
    webarena_host: z.string().nullable().default(null),
    tasks: TasksConfig,
    collect: CollectConfig,
    model: ModelConfig,
    env: EnvConfig,
    workers: WorkersConfig,
    fault: FaultConfig,
    supervisor: SupervisorConfig,
    transport: TransportConfig,
    remote: RemoteConfig,
    chat: ChatConfig,
    judge: JudgeConfig,
    learner: LearnerConfig,
    /**
     * max_policy_lag: how many policy versions an episode's sampling may trail the version the
     * learner improves on (issue 56). 0 is TTI's synchronous loop: collect, train, eval in turn. N ≥ 1:
     * env workers collect up to N iterations ahead while the learner trains and eval runs beside.
     */
    rollout: z.strictObject({ max_policy_lag: NonNegativeInt.default(0) }).prefault({}),
    log_level: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
  })
  .superRefine((config, ctx) => {
    if (config.learner.algorithm === 'awr' && (config.learner.kind !== 'tfjs' || config.policy_lm !== 'tfjs'))
      ctx.addIssue({
        code: 'custom',
        path: ['learner', 'algorithm'],
        message:
          'awr trains the embedded tfjs policy and its critic: set policy_lm tfjs and learner.kind tfjs, ' +
          'or use filtered_bc with an external learner',
      });
    if (config.learner.demos !== null && (config.learner.kind !== 'tfjs' || config.policy_lm !== 'tfjs'))
      ctx.addIssue({
        code: 'custom',
        path: ['learner', 'demos'],
        message:
          'demos are mixed into the embedded tfjs learner: set policy_lm tfjs and learner.kind tfjs, ' +
          "or add them to your external learner's data",
      });
    if (config.model.prior !== null && config.policy_lm !== 'tfjs')
      ctx.addIssue({
        code: 'custom',
        path: ['model', 'prior'],
        message:
          "a prior shapes the embedded tfjs policy: set policy_lm tfjs, or leave the chat model's to it",
      });
    // Before suites were plug-ins, env.suite webarena (the old default) meant "the task files",
    // MiniArena's when no host was set; now it means WebArena's own containers. Say so up front
    // rather than let every env worker fail to start.
    if (config.env.suite === 'webarena' && config.webarena_host === null)
      ctx.addIssue({
        code: 'custom',
        path: ['env', 'suite'],
        message:
          "env.suite webarena runs WebArena's own containers: set webarena_host, or use env.suite auto " +
          '(or miniarena) for the embedded sites. A run directory written by tti before suites were ' +
          'plug-ins says webarena where it meant MiniArena: resume it with --set env.suite=auto',
      });
    if (config.collect.search_keep === 'exploratory' && config.collect.search !== 'branch')
      ctx.addIssue({
        code: 'custom',
        path: ['collect', 'search_keep'],
        message: 'exploratory keeps what a search did: set collect.search branch too',
      });
    if (
      config.collect.search_keep === 'exploratory' &&
      config.env.suite === 'miniwob' &&
      !config.env.miniwob.offer_navigation
    )
      ctx.addIssue({
        code: 'custom',
        path: ['collect', 'search_keep'],
        message:
          'exploratory trajectories go back with GoBack, which MiniWoB++ pages do not offer: ' +
          'set env.miniwob.offer_navigation true, or keep search_keep from_start',
      });
    if (config.collect.state_probes && !config.collect.stop_probes)
      ctx.addIssue({
        code: 'custom',
        path: ['collect', 'state_probes'],
        message: 'state probes are stop probes of program_html tasks: set collect.stop_probes true too',
      });
    // Remote workers reach a run only through its listening sockets.
    for (const role of ['env', 'inference'] as const) {
      if (config.remote[role] > 0 && config.transport.listen === null)
        ctx.addIssue({
          code: 'custom',
          path: ['remote', role],
          message: `${config.remote[role]} remote ${role} workers need the run to listen: pass --listen tcp://ADDR:PORT (transport.listen)`,
        });
    }
  });

export type Config = z.infer<typeof Config>;
