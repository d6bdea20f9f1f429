// The learner role: on each `train` command it asks replay for a sample of kept trajectories
// (recency + per-site balance, as TTI draws them), hands it to the objective `learner.algorithm`
// names (src/model/objective.ts: filtered BC, TTI's, or AWR, whose sample holds failures too),
// runs `actor_epochs` passes over the steps it gives each head, writes a checkpoint (weights,
// optimizer state, counters) atomically, publishes the new weights and tells the supervisor.
//
// Training runs in small chunks with the event loop free in between, so heartbeats keep flowing
// while it trains (a learner silent for `heartbeat_timeout_ms` is taken for hung).
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  BcTrainer,
  CheckpointStore,
  type DemoMix,
  drawDemoSteps,
  loadBackend,
  loadDemoMix,
  objectiveNamed,
  saveModelCheckpoint,
  type TensorFrames,
  type TfjsPolicy,
  type TrainingStep,
} from '../../model/index.js';
import type { TrainedMessage } from '../../protocol/index.js';
import { mixSeeds, SeededRandom } from '../../util/index.js';
import { untilWritten } from './disk-pause.js';
import { externalLearnerRole } from './external-learner-role.js';
import { openLearnerSockets } from './learner-sockets.js';
import { freshPolicy, startingPolicy } from './starting-policy.js';
import { type TrainCommand, trainingQueue } from './training-queue.js';
import type { RoleMain } from './worker-shell.js';

const SAMPLE_TIMEOUT_MS = 60000;
/** keeps the demos' draws apart from replay's, which mixes the same seed and iteration */
const DEMO_STREAM = 0xde305;
/** Training time between yields to the event loop (heartbeats, commands). */
const YIELD_EVERY_MS = 100;

export const learnerRole: RoleMain = async (ctx) => {
  if (ctx.config.learner.kind === 'external') return externalLearnerRole(ctx);
  if (ctx.runDir === null) throw new Error('the learner needs --run-dir for its checkpoints');
  const backend = await loadBackend(ctx.config.model.backend, (m) => ctx.log.info(m));
  ctx.labels.backend = backend;
  const store = new CheckpointStore(path.join(ctx.runDir, 'checkpoints'), ctx.config.model.keep_checkpoints);

  // The run's own newest checkpoint resumes everything (weights, Adam, counters); a given
  // checkpoint (`model.checkpoint`: fine-tuning) gives only the weights and its version, which the
  // run's versions then count on from, since inference swaps in only newer versions.
  let policy: TfjsPolicy;
  let policyVersion = 0;
  let optimizerState: TensorFrames | null = null;
  let samplesSeen = 0;
  /** the last iteration trained; a repeated command for it is answered without training again */
  let lastIteration = 0;
  const start = startingPolicy(ctx);
  if (start !== null) {
    policy = start.loaded.policy;
    policyVersion = start.loaded.version;
    if (start.from === 'run') {
      optimizerState = start.loaded.optimizerState;
      samplesSeen = start.loaded.counters.samplesSeen ?? 0;
      lastIteration = start.loaded.counters.iteration ?? 0;
      ctx.log.info(`resumed from checkpoint v${policyVersion}`);
    } else {
      ctx.log.info(`starting from the weights of ${start.loaded.path} (v${policyVersion})`);
    }
  } else {
    policy = freshPolicy(ctx);
  }
  const trainer = new BcTrainer(policy, {
    learningRate: ctx.config.lm_lr,
    clipNorm: ctx.config.model.clip_norm,
    scorePenalty: ctx.config.model.score_penalty,
  });
  const objective = objectiveNamed(ctx.config.learner.algorithm);
  if (optimizerState !== null) await trainer.importState(optimizerState);
  ctx.counters.policyVersion = policyVersion;
  ctx.counters.samplesSeen = samplesSeen;

  const { weights, samples } = await openLearnerSockets(ctx);
  const random = new SeededRandom(ctx.config.seed * 104729 + 1);
  // `tti-run train` checked the file before the run started; read here, a bad one fails the learner.
  let demos: DemoMix | null = null;
  if (ctx.config.learner.demos !== null) {
    demos = await loadDemoMix(ctx.config.learner.demos, {
      horizon: ctx.config.eval_horizon,
      skipOverwrittenEdits: ctx.config.learner.skip_overwritten_edits,
    });
    ctx.log.info(
      `mixing ${Math.min(ctx.config.learner.demos_per_iteration, demos.demos.length)} of ` +
        `${demos.demos.length} demonstrations (${demos.steps} steps, ${demos.uncovered} not among ` +
        `the candidates) from ${demos.file} into every iteration`,
    );
  }

  const publish = async (): Promise<void> => {
    const { specs, frames } = policy.exportWeights();
    await weights.send(
      {
        type: 'weights',
        policyVersion,
        tensors: specs.map((s) => ({ name: s.name, dtype: 'float32', shape: s.shape })),
      },
      frames,
    );
  };

  /** One pass of the policy (or of the critic) over a sample of replay, yielding between chunks. */
  /** the `slow` fault: the next training step holds the event loop past the heartbeat timeout */
  let slowStep = false;
  const trainOn = async (steps: TrainingStep[], mode: 'policy' | 'critic' = 'policy') => {
    if (slowStep) {
      slowStep = false;
      const holdMs = 2 * ctx.config.supervisor.heartbeat_timeout_ms;
      ctx.log.warn(`slow fault: this training step holds the event loop for ${holdMs} ms`);
      const until = Date.now() + holdMs;
      while (Date.now() < until) {
        /* a step tfjs takes this long to compute */
      }
    }
    const batchSize = ctx.config.batch_size;
    let lossSum = 0;
    let lossCount = 0;
    let skipped = 0;
    let trained = 0;
    let busyMs = 0;
    // A handful of kept trajectories makes one or two batches: one pass would barely move the
    // policy, so passes repeat until `min_updates` updates (docs/model.md measured ~40 needed).
    const updatesPerEpoch = Math.max(1, Math.ceil(steps.length / batchSize));
    const epochs = Math.max(ctx.config.actor_epochs, Math.ceil(ctx.config.min_updates / updatesPerEpoch));
    let lastYield = performance.now();
    for (let epoch = 0; epoch < epochs; epoch++) {
      const order = random.sample(steps, steps.length);
      for (let at = 0; at < order.length; at += batchSize) {
        const t0 = performance.now();
        const report = trainer.train(order.slice(at, at + batchSize), {
          epochs: 1,
          batchSize,
          mode,
          random: random.next,
        });
        busyMs += performance.now() - t0;
        if (report.updates > 0 && Number.isFinite(report.loss)) {
          lossSum += report.loss * report.updates;
          lossCount += report.updates;
        }
        skipped += report.skipped;
        trained += report.samples;
        // Yield by time, not by batch count: on a loaded machine a few batches can outlast the
        // heartbeat timeout, and a learner that misses heartbeats is killed as hung.
        if (performance.now() - lastYield >= YIELD_EVERY_MS) {
          await yieldToLoop();
          lastYield = performance.now();
        }
      }
    }
    return {
      loss: lossCount > 0 ? lossSum / lossCount : null,
      skipped,
      trained,
      samplesPerSec: busyMs > 0 ? trained / (busyMs / 1000) : null,
    };
  };

  /** The critic's estimates of `steps`, a batch at a time with the event loop free between (heartbeats). */
  const ratedYielding = async (steps: readonly TrainingStep[]): Promise<Float32Array> => {
    const out = new Float32Array(steps.length);
    let lastYield = performance.now();
    for (let at = 0; at < steps.length; at += ctx.config.batch_size) {
      out.set(trainer.values(steps.slice(at, at + ctx.config.batch_size)), at);
      if (performance.now() - lastYield >= YIELD_EVERY_MS) {
        await yieldToLoop();
        lastYield = performance.now();
      }
    }
    return out;
  };

  const onTrain = async (command: TrainCommand): Promise<void> => {
    const started = Date.now();
    if (command.iteration <= lastIteration && lastIteration > 0) {
      ctx.log.info(`iteration ${command.iteration} was trained already (v${policyVersion}); answering again`);
      await ctx.sendControl({
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
        durationMs: 0,
      } satisfies TrainedMessage);
      await publish();
      return;
    }
    ctx.setBusy(true);
    // A training step holds the event loop for as long as tfjs computes it (the first one compiles
    // kernels too): seconds on a loaded machine, where the heartbeat timeout would take it for hung.
    await ctx.setGrace(ctx.config.supervisor.compute_grace_ms);
    let reply: TrainedMessage;
    try {
      const batch = await samples.request(
        {
          type: 'sample_request',
          maxTrajectories: ctx.config.actor_trajectories,
          ...(objective.failures ? { maxFailures: ctx.config.actor_trajectories } : {}),
          seed: mixSeeds(ctx.config.seed, command.iteration),
          // rollout.max_policy_lag ≥ 1: nothing sampled under a policy older than the bound
          ...(command.minPolicyVersion === undefined ? {} : { minPolicyVersion: command.minPolicyVersion }),
        },
        () => true,
        SAMPLE_TIMEOUT_MS,
      );
      if (batch === null)
        throw new Error(`replay did not answer a sample request in ${SAMPLE_TIMEOUT_MS} ms`);
      // In episode order (replay's promise), so the same kept episodes train the same weights.
      const trajectories = batch.message.trajectories;
      const stale = batch.message.stale;
      if (stale !== undefined) {
        ctx.counters.staleLeftOut = stale;
        if (stale > 0)
          ctx.log.info(
            `iteration ${command.iteration}: ${stale} kept trajectories older than v${command.minPolicyVersion} left out`,
          );
      }
      let demoSteps: TrainingStep[] = [];
      if (demos !== null) {
        // A stream of the seed and the iteration alone: what replay sent does not change which
        // demos an iteration draws, and a restarted learner draws the same ones.
        const drawn = drawDemoSteps(
          demos,
          ctx.config.learner.demos_per_iteration,
          new SeededRandom(mixSeeds(ctx.config.seed, command.iteration, DEMO_STREAM)),
        );
        demoSteps = drawn.steps;
        ctx.log.info(
          `iteration ${command.iteration}: ${drawn.trajectories} demonstrations (${drawn.steps.length} steps) mixed in`,
        );
      }
      const passes = await objective.passes(
        {
          iteration: command.iteration,
          trajectories,
          demos: demoSteps,
          values: ratedYielding,
          log: (m) => ctx.log.info(m),
        },
        ctx.config.learner,
      );
      Object.assign(ctx.counters, passes.counters);
      const steps = passes.policy;
      const criticSteps = passes.critic;
      let checkpoint: string | null = null;
      let result: Awaited<ReturnType<typeof trainOn>> = {
        loss: null,
        skipped: 0,
        trained: 0,
        samplesPerSec: null,
      };
      if (steps.length > 0 || criticSteps.length > 0) {
        if (steps.length > 0) result = await trainOn(steps);
        if (criticSteps.length > 0) {
          const critic = await trainOn(criticSteps, 'critic');
          ctx.log.info(
            `iteration ${command.iteration} critic: ${critic.trained} samples, squared error ${critic.loss?.toFixed(4) ?? 'n/a'}`,
          );
        }
        // Above the given checkpoint's version when the run started from one.
        policyVersion = Math.max(command.policyVersion, policyVersion + 1);
        samplesSeen += result.trained;
        const version = policyVersion;
        const optimizer = await trainer.exportState();
        // A full disk pauses the learner here (disk-pause.ts) rather than crash-looping it.
        checkpoint = await untilWritten(ctx, `checkpoint v${version}`, () =>
          saveModelCheckpoint(store, version, policy, optimizer, {
            iteration: command.iteration,
            policyVersion: version,
            samplesSeen,
          }),
        );
        await publish();
      }
      lastIteration = command.iteration;
      ctx.counters.policyVersion = policyVersion;
      ctx.counters.samplesSeen = samplesSeen;
      if (result.samplesPerSec !== null) ctx.counters.samplesPerSec = Math.round(result.samplesPerSec);
      ctx.log.info(
        `iteration ${command.iteration}: ${trajectories.length} trajectories, ${result.trained} samples, ` +
          `loss ${result.loss?.toFixed(4) ?? 'n/a'}, v${policyVersion}`,
      );
      reply = {
        type: 'trained',
        workerId: ctx.workerId,
        iteration: command.iteration,
        policyVersion,
        trajectories: trajectories.length,
        samples: result.trained,
        skipped: result.skipped,
        loss: result.loss,
        samplesPerSec: result.samplesPerSec,
        checkpoint,
        durationMs: Date.now() - started,
        ...(stale === undefined ? {} : { stale }),
      };
    } finally {
      ctx.setBusy(false);
      void ctx.setGrace(0);
    }
    await ctx.sendControl(reply);
  };

  // Inference workers that start after the learner still hear the current weights.
  if (policyVersion > 0) await publish();

  const queue = trainingQueue(ctx.log, publish, onTrain);
  return {
    onCommand: queue.onCommand,
    injectFault(fault) {
      if (fault === 'slow') slowStep = true;
    },
    async stop() {
      await queue.stop();
      weights.close();
      samples.close();
      policy.dispose();
    },
  };
};
