// The replay role: receives finished trajectories, keeps the successful ones (TTI's filter:
// reward 1 and an answer that is not N/A) and serves them to the learner.
// This shell keeps them in memory; the durable append-only log arrives with the TTI loop.
import { Inbound, type Trajectory } from '../protocol.js';
import { Channel } from '../transport.js';
import type { RoleMain } from './worker-shell.js';

export function isKept(trajectory: Trajectory): boolean {
  return (
    trajectory.reward >= 1 && trajectory.answer !== null && trajectory.answer.trim().toUpperCase() !== 'N/A'
  );
}

export const replayRole: RoleMain = async (ctx) => {
  const incoming = Channel.create(
    'trajectories',
    'pull',
    Inbound.trajectoriesToReplay,
    ctx.rejected,
    ctx.tuning,
  );
  await incoming.bind(ctx.endpoints.trajectories);
  const samples = Channel.create('samples', 'router', Inbound.samplesToReplay, ctx.rejected, ctx.tuning);
  await samples.bind(ctx.endpoints.samples);

  const kept = new Map<string, Trajectory>();
  ctx.counters.received = 0;
  ctx.counters.kept = 0;

  const receiving = incoming.serve(({ message }) => {
    ctx.counters.received = (ctx.counters.received ?? 0) + 1;
    if (isKept(message) && !kept.has(message.episodeId)) kept.set(message.episodeId, message);
    ctx.counters.kept = kept.size;
  });
  const serving = samples.serve(async ({ message, peer }) => {
    if (peer === null) return;
    const batch = [...kept.values()].slice(-message.maxTrajectories);
    await samples
      .sendTo(peer, { type: 'sample_batch', trajectories: batch })
      .catch((error: Error) => ctx.log.warn(`sample batch lost: ${error.message}`));
  });

  return {
    async stop() {
      incoming.close();
      samples.close();
      await Promise.allSettled([receiving, serving]);
    },
  };
};
