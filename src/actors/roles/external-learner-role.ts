// The learner with `learner.kind: external`: each iteration it samples kept trajectories from
// replay (as the tfjs learner does), exports them as chat-format SFT samples, runs the user's
// command (e.g. a Python fine-tuning script) on that file with a fresh output folder, and points
// inference at the result: a new served model name, or a LoRA adapter loaded into vLLM through
// /v1/load_lora_adapter. A command that fails (non-zero exit, timeout) crashes this worker, which
// the supervisor restarts and asks again, like any worker's failure.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exportSft } from '../../export/index.js';
import { apiKeyFrom, ChatClient, loadPromptTemplates } from '../../model/chat/index.js';
import type { TrainedMessage } from '../../protocol/index.js';
import { mixSeeds, projectRoot } from '../../util/index.js';
import { readServedModel, SERVED_MODEL_FILE } from './chat-inference-role.js';
import { openLearnerSockets } from './learner-sockets.js';
import { type TrainCommand, trainingQueue } from './training-queue.js';
import type { RoleContext, RoleProcess } from './worker-shell.js';

const SAMPLE_TIMEOUT_MS = 60000;
/** A file the command may write in its output folder to name the model it produced. */
export const MODEL_NAME_FILE = 'served_model_name';

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

export async function externalLearnerRole(ctx: RoleContext): Promise<RoleProcess> {
  const runDir = ctx.runDir;
  if (runDir === null) throw new Error('the learner needs --run-dir for its exports');
  const cfg = ctx.config.learner;
  if (cfg.command.length === 0)
    throw new Error(
      'learner.kind external needs learner.command (an argv list, e.g. [python, train.py, "{data}", "{out}"])',
    );
  if (ctx.config.policy_lm === 'tfjs')
    throw new Error("learner.kind external trains a chat model: set policy_lm to the served model's name");
  const templates = loadPromptTemplates(ctx.config.chat.prompt);
  const served = readServedModel(runDir);
  let policyVersion = served?.policyVersion ?? 0;
  let model = served?.model ?? ctx.config.policy_lm;
  let lastIteration = served === null ? 0 : readIteration(runDir);
  ctx.counters.policyVersion = policyVersion;
  ctx.labels.model = model;

  const { weights, samples } = await openLearnerSockets(ctx);
  const publish = () => weights.send({ type: 'weights', policyVersion, tensors: [], model });

  let child: ChildProcess | null = null;
  /** Runs the command; resolves on exit 0, rejects (with the log's tail) otherwise. */
  const runCommand = (argv: string[], logFile: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const [file, ...args] = argv;
      if (file === undefined) return reject(new Error('empty learner.command'));
      const log = createWriteStream(logFile);
      let tail = '';
      const keep = (d: Buffer) => {
        log.write(d);
        tail = (tail + d.toString()).slice(-600);
      };
      // Its own process group, so a timeout or a stop takes its children (a trainer's workers) too.
      const proc = spawn(file, args, { cwd: runDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      proc.stdout?.on('data', keep);
      proc.stderr?.on('data', keep);
      const timer = setTimeout(() => {
        tail += `\n(killed after learner.timeout_ms = ${cfg.timeout_ms} ms)`;
        if (proc.pid !== undefined) process.kill(-proc.pid, 'SIGKILL');
      }, cfg.timeout_ms);
      proc.on('error', (error) => {
        clearTimeout(timer);
        child = null;
        log.end();
        reject(new Error(`learner.command ${JSON.stringify(file)} could not start: ${error.message}`));
      });
      proc.on('exit', (code, signal) => {
        clearTimeout(timer);
        child = null;
        log.end();
        if (code === 0) resolve();
        else
          reject(
            new Error(
              `learner.command exited with ${code ?? signal} (log: ${logFile}): ${tail.trim().split('\n').slice(-3).join(' | ')}`,
            ),
          );
      });
    });

  const onTrain = async (command: TrainCommand): Promise<void> => {
    const started = Date.now();
    const answer = (fields: Partial<TrainedMessage>) =>
      ctx.sendControl({
        type: 'trained',
        workerId: ctx.workerId,
        iteration: command.iteration,
        policyVersion,
        trajectories: 0,
        samples: 0,
        skipped: 0,
        loss: null,
        samplesPerSec: null,
        checkpoint: null,
        durationMs: Date.now() - started,
        ...fields,
      } satisfies TrainedMessage);
    if (command.iteration <= lastIteration && lastIteration > 0) {
      ctx.log.info(`iteration ${command.iteration} was trained already (v${policyVersion}); answering again`);
      await answer({});
      await publish();
      return;
    }
    ctx.setBusy(true);
    try {
      const batch = await samples.request(
        {
          type: 'sample_request',
          maxTrajectories: ctx.config.actor_trajectories,
          seed: mixSeeds(ctx.config.seed, command.iteration),
          ...(command.minPolicyVersion === undefined ? {} : { minPolicyVersion: command.minPolicyVersion }),
        },
        () => true,
        SAMPLE_TIMEOUT_MS,
      );
      if (batch === null)
        throw new Error(`replay did not answer a sample request in ${SAMPLE_TIMEOUT_MS} ms`);
      const stale = batch.message.stale === undefined ? {} : { stale: batch.message.stale };
      const iterDir = path.join(runDir, 'sft', `iter-${String(command.iteration).padStart(3, '0')}`);
      const out = path.join(iterDir, 'output');
      mkdirSync(out, { recursive: true });
      const report = exportSft(batch.message.trajectories, {
        episodesDir: path.join(runDir, 'episodes'),
        out: path.join(iterDir, 'train.jsonl'),
        templates,
        maxImages: ctx.config.chat.max_images,
        images: cfg.images,
      });
      if (report.samples === 0) {
        ctx.log.info(`iteration ${command.iteration}: nothing kept to train on; still serving ${model}`);
        lastIteration = command.iteration;
        await answer(stale);
        return;
      }
      const version = command.policyVersion;
      const values = {
        data: report.file,
        out,
        iteration: String(command.iteration),
        version: String(version),
        model,
        run_dir: runDir,
        // the checkout tti runs from: the command runs in the run directory, not there
        project: projectRoot,
      };
      const argv = cfg.command.map((a) => fill(a, values));
      ctx.log.info(`iteration ${command.iteration}: ${report.samples} samples; running ${argv.join(' ')}`);
      await runCommand(argv, path.join(iterDir, 'command.log'));
      const nameFile = path.join(out, MODEL_NAME_FILE);
      const name = existsSync(nameFile)
        ? readFileSync(nameFile, 'utf8').trim()
        : fill(cfg.model_name, { version: String(version), iteration: String(command.iteration) });
      if (cfg.serve === 'lora') {
        const client = new ChatClient({
          baseUrl: ctx.config.chat.base_url,
          apiKey: apiKeyFrom(ctx.config.chat.api_key_env),
          timeoutMs: ctx.config.chat.timeout_ms,
          maxRetries: ctx.config.chat.max_retries,
          backoffInitialMs: ctx.config.chat.backoff_initial_ms,
          backoffMaxMs: ctx.config.chat.backoff_max_ms,
        });
        await client.loadLoraAdapter(name, out);
        ctx.log.info(`LoRA adapter ${out} loaded into the server as ${name}`);
      }
      policyVersion = version;
      model = name;
      lastIteration = command.iteration;
      // Recorded before it is announced: a restarted inference worker or learner serves the same.
      const file = path.join(runDir, SERVED_MODEL_FILE);
      writeFileSync(`${file}.tmp`, JSON.stringify({ policyVersion, model, iteration: command.iteration }));
      renameSync(`${file}.tmp`, file);
      ctx.counters.policyVersion = policyVersion;
      ctx.labels.model = model;
      await publish();
      await answer({
        trajectories: report.trajectories,
        samples: report.samples,
        checkpoint: out,
        samplesPerSec: report.samples / ((Date.now() - started) / 1000),
        ...stale,
      });
    } finally {
      ctx.setBusy(false);
    }
  };

  if (policyVersion > 0) await publish();
  const queue = trainingQueue(ctx.log, publish, onTrain);
  return {
    onCommand: queue.onCommand,
    async stop() {
      const running = child as ChildProcess | null;
      const stopped = queue.stop();
      if (running?.pid !== undefined) process.kill(-running.pid, 'SIGTERM');
      await stopped;
      weights.close();
      samples.close();
    },
  };
}

function readIteration(runDir: string): number {
  const json = JSON.parse(readFileSync(path.join(runDir, SERVED_MODEL_FILE), 'utf8')) as {
    iteration?: unknown;
  };
  return typeof json.iteration === 'number' ? json.iteration : 0;
}
