// The inference role: one per GPU (one on CPU). It answers env workers' act requests with the
// trainable policy, batching requests that arrive together into one forward pass, and swaps in
// new weights from the learner only between batches. Every reply carries the policy version that
// chose it; a request pinned to a version (the asynchronous loop's eval) is answered by that
// version's snapshot while collection's requests get the newest (held-policies.ts). A request is answered only for the env worker it names, by that worker's key
// (src/run/speaker-check.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { policyInputOf } from '../../episode/policy-input.js';
import {
  type EncodedObservation,
  encodeObservation,
  loadBackend,
  redundantActions,
  type TensorFrames,
  type TfjsPolicy,
  unpackModelInput,
} from '../../model/index.js';
import {
  type ActRequestMessage,
  Channel,
  type Fault,
  Inbound,
  type WeightsMessage,
} from '../../protocol/index.js';
import { SeededRandom } from '../../util/index.js';
import { actSocket } from './act-socket.js';
import { chatInferenceRole } from './chat-inference-role.js';
import { DynamicBatcher } from './dynamic-batcher.js';
import { HeldPolicies } from './held-policies.js';
import { freshPolicy, startingPolicy } from './starting-policy.js';
import type { RoleContext, RoleMain } from './worker-shell.js';

interface Pending {
  message: ActRequestMessage;
  /** the request's raw frames (the model input's) */
  raw: Buffer[];
  peer: Buffer;
}

/** The policy this worker starts with: the run's latest, a given checkpoint, or a fresh init. */
function initialPolicy(ctx: RoleContext): { policy: TfjsPolicy; version: number } {
  const start = startingPolicy(ctx);
  if (start === null) {
    ctx.log.info(`policy v0: a fresh initialisation (seed ${ctx.config.seed})`);
    return { policy: freshPolicy(ctx), version: 0 };
  }
  ctx.log.info(`policy v${start.loaded.version} from ${start.loaded.path}`);
  return { policy: start.loaded.policy, version: start.loaded.version };
}

export const inferenceRole: RoleMain = async (ctx) => {
  // Any other policy_lm names a chat model behind an OpenAI-compatible endpoint.
  if (ctx.config.policy_lm !== 'tfjs') return chatInferenceRole(ctx);
  const backend = await loadBackend(ctx.config.model.backend, (m) => ctx.log.info(m));
  ctx.labels.backend = backend;
  let { policy, version: policyVersion } = initialPolicy(ctx);
  ctx.counters.policyVersion = policyVersion;
  const held = new HeldPolicies(ctx);

  const socket = actSocket(ctx);
  const act = socket.channel;
  // A worker that joins a run already past its first weights serves only once it has the run's
  // (the learner publishes them again when the supervisor sees this worker behind).
  let serving = false;
  const openWhenCurrent = async (): Promise<void> => {
    if (serving || policyVersion < ctx.runPolicyVersion) return;
    serving = true;
    await socket.open();
    ctx.log.info(`serving v${policyVersion} on ${socket.where}`);
  };
  const weights = Channel.create('weights', 'sub', Inbound.weightsToInference, ctx.rejected, ctx.tuning);
  weights.connect(ctx.endpoints.weights);
  if (policyVersion < ctx.runPolicyVersion)
    ctx.log.info(`waiting for weights v${ctx.runPolicyVersion} before serving (have v${policyVersion})`);

  // Weights that arrived while a batch ran wait here; only the newest matters.
  let incoming: { message: WeightsMessage; frames: Buffer[] } | null = null;
  let answering = false;
  void weights.serve(({ message, raw }) => {
    if (message.policyVersion <= policyVersion) return;
    incoming = { message, frames: raw };
    // Idle between batches (as between a rollout and the next, when the supervisor waits for this
    // version): swap now rather than at the next request, which would come only after the wait.
    if (!answering) swapWeights();
  });
  const swapWeights = (): void => {
    if (incoming === null) return;
    const { message, frames } = incoming;
    incoming = null;
    const tensors: TensorFrames = {
      specs: message.tensors.map((t) => ({ name: t.name, dtype: 'float32', shape: t.shape })),
      frames,
    };
    try {
      // a version an eval is pinned to stays served to it, beside the new one
      const next = held.swapOut({ policy, version: policyVersion }, tensors);
      if (next === null) policy.importWeights(tensors);
      else policy = next;
      policyVersion = message.policyVersion;
      ctx.counters.policyVersion = policyVersion;
      ctx.counters.weightBytes = frames.reduce((n, f) => n + f.byteLength, 0);
      ctx.log.info(`weights v${policyVersion} swapped in (${frames.length} tensors)`);
      void openWhenCurrent().catch((error: Error) => ctx.log.error(`act socket: ${error.message}`));
    } catch (error) {
      ctx.log.error(`weights v${message.policyVersion} rejected: ${(error as Error).message}`);
    }
  };

  // The env worker's features when it sent them (model.featurize: env), as frames of the model's
  // layout, else encoded here. A model input this policy cannot use (a layout or version it does
  // not know, other buckets, malformed) is counted, the first logged, and the raw observation
  // encoded instead: the episode goes on.
  /** the layouts (and versions) whose refusal was logged: each once, at most a few */
  const refusalsLogged = new Set<string>();
  const observationOf = ({
    message,
    raw,
  }: Pending): { encoded: EncodedObservation; excluded: ReadonlySet<number> } => {
    if (message.policy === 'tfjs' && message.modelInput !== undefined) {
      try {
        const decoded = unpackModelInput(message.modelInput, raw, policy.options.buckets);
        if (ctx.counters.featuresUsed === undefined) ctx.log.info("acting on the env workers' features");
        ctx.counters.featuresUsed = (ctx.counters.featuresUsed ?? 0) + 1;
        return decoded;
      } catch (error) {
        ctx.counters.featuresRejected = (ctx.counters.featuresRejected ?? 0) + 1;
        const layout = `${message.modelInput.layout} v${message.modelInput.version}`;
        if (!refusalsLogged.has(layout) && refusalsLogged.size < 8) {
          refusalsLogged.add(layout);
          ctx.log.warn(
            `an env worker's features were not used (${layout}: ${(error as Error).message}); encoding here`,
          );
        }
      }
    }
    const input = policyInputOf(message);
    const encoded = encodeObservation(input, { buckets: policy.options.buckets });
    return { encoded, excluded: redundantActions(encoded.candidates, input) };
  };

  const random = new SeededRandom(ctx.config.seed * 7919 + Number(ctx.workerId.replace(/\D/g, '') || 0));
  let slowMs = 0;
  const answer = async (batch: Pending[]): Promise<void> => {
    swapWeights();
    answering = true;
    try {
      await answerBatch(batch);
    } finally {
      answering = false;
    }
  };
  const answerBatch = async (batch: Pending[]): Promise<void> => {
    ctx.setBusy(true);
    if (slowMs > 0) await sleep(slowMs);
    const started = performance.now();
    // Collection samples at its episode's temperature, eval acts greedily: one forward pass per
    // way of choosing in the batch.
    const groups = new Map<string, Pending[]>();
    for (const p of batch) {
      const key = `${p.message.policyVersion ?? 'newest'}:${p.message.greedy ? 'greedy' : `t${p.message.temperature}`}`;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [p]);
      else group.push(p);
    }
    for (const group of groups.values()) {
      const { greedy, temperature, policyVersion: pinned } = group[0]!.message;
      const acting = held.policyFor(pinned, { policy, version: policyVersion });
      const inputs = group.map(observationOf);
      const decisions = acting.policy.actOn(
        inputs.map((i) => i.encoded),
        inputs.map((i) => i.excluded),
        { greedy, temperature, random: random.next },
        // A request's seed makes its draw independent of the batch and of arrival order.
        (b) => {
          const seed = group[b]!.message.seed;
          return seed === undefined ? random.next : new SeededRandom(seed).next;
        },
      );
      await Promise.all(
        group.map((p, i) =>
          act
            .sendTo(p.peer, {
              type: 'act_reply',
              episodeId: p.message.episodeId,
              step: p.message.step,
              reply: decisions[i]?.reply ?? 'Thought: no decision.\nAction: Wait',
              policyVersion: acting.version,
              ...(decisions[i]?.value === undefined ? {} : { value: decisions[i]!.value! }),
              ...(decisions[i] === undefined ? {} : { logProb: decisions[i]!.logProb }),
            })
            .catch((error: Error) => ctx.log.warn(`act reply lost: ${error.message}`)),
        ),
      );
    }
    ctx.counters.actions = (ctx.counters.actions ?? 0) + batch.length;
    ctx.counters.batches = (ctx.counters.batches ?? 0) + 1;
    ctx.counters.lastBatchMs = Math.round((performance.now() - started) * 10) / 10;
    ctx.counters.meanBatch =
      Math.round(((ctx.counters.actions ?? 0) / (ctx.counters.batches ?? 1)) * 100) / 100;
    ctx.setBusy(false);
  };
  const batcher = new DynamicBatcher<Pending>(
    { maxBatch: ctx.config.model.max_batch, maxWaitMs: ctx.config.model.max_wait_ms },
    answer,
    (error) => ctx.log.error(`a batch failed: ${error.message}`),
  );
  await openWhenCurrent();
  const served = act.serve(({ message, raw, peer }) => {
    if (peer !== null && ctx.speaks(message, 'act')) batcher.push({ message, raw, peer });
  });

  return {
    async stop() {
      await batcher.close();
      act.close();
      weights.close();
      await served.catch(() => undefined);
      policy.dispose();
      held.dispose();
    },
    injectFault(fault: Fault) {
      if (fault === 'slow') slowMs = 2000;
    },
  };
};
