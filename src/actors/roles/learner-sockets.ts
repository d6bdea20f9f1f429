// The sockets every learner (the tfjs trainer or an external command) serves: it publishes weights
// (or a served model's name) and asks replay for samples.
import { Channel, Inbound, Requester } from '../../protocol/index.js';
import type { RoleContext } from './worker-shell.js';

export async function openLearnerSockets(ctx: RoleContext) {
  const weights = Channel.create('weights', 'pub', null, ctx.rejected, ctx.tuning);
  await weights.bind(ctx.endpoints.weights);
  const samplesChannel = Channel.create(
    'samples',
    'dealer',
    Inbound.samplesToLearner,
    ctx.rejected,
    ctx.tuning,
  );
  samplesChannel.connect(ctx.endpoints.samples);
  return { weights, samples: new Requester(samplesChannel) };
}
