// The inference role: one per GPU (one on CPU). It answers act requests from env workers and swaps
// in new weights from the learner between requests, stamping every reply with its policy version.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Fault, Inbound } from '../protocol.js';
import { Channel } from '../transport.js';
import type { RoleMain } from './worker-shell.js';

export const inferenceRole: RoleMain = async (ctx) => {
  const endpoint = ctx.endpoints.act[ctx.workerId];
  if (endpoint === undefined) throw new Error(`no act endpoint for ${ctx.workerId}`);
  const act = Channel.create('act', 'router', Inbound.actToInference, ctx.rejected, ctx.tuning);
  await act.bind(endpoint);
  const weights = Channel.create('weights', 'sub', Inbound.weightsToInference, ctx.rejected, ctx.tuning);
  weights.connect(ctx.endpoints.weights);

  let policyVersion = 0;
  let weightBytes = 0;
  let slowMs = 0;
  ctx.counters.policyVersion = 0;

  void weights.serve(({ message, raw }) => {
    policyVersion = message.policyVersion;
    weightBytes = raw.reduce((n, frame) => n + frame.byteLength, 0);
    ctx.counters.policyVersion = policyVersion;
    ctx.counters.weightBytes = weightBytes;
    ctx.log.info(`weights v${policyVersion} received (${weightBytes} bytes in ${raw.length} tensors)`);
  });

  const serving = act.serve(async ({ message, peer }) => {
    if (peer === null) return;
    ctx.setBusy(true);
    if (slowMs > 0) await sleep(slowMs);
    // No trainable policy is wired in yet (src/model): answer with TTI's no-op action, stamped.
    await act
      .sendTo(peer, {
        type: 'act_reply',
        episodeId: message.episodeId,
        step: message.step,
        reply: 'Thought: no policy is loaded in this build.\nAction: Wait',
        policyVersion,
      })
      .catch((error: Error) => ctx.log.warn(`act reply lost: ${error.message}`));
    ctx.counters.actions = (ctx.counters.actions ?? 0) + 1;
    ctx.setBusy(false);
  });

  return {
    async stop() {
      act.close();
      weights.close();
      await serving.catch(() => undefined);
    },
    injectFault(fault: Fault) {
      if (fault === 'slow') slowMs = 2000;
    },
  };
};
