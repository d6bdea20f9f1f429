// The learner role: trains the policy on samples from replay and publishes versioned weights.
// This shell owns the weights PUB socket and the samples connection; training arrives with the
// TTI loop (src/model).
import { Channel } from '../transport.js';
import type { RoleMain } from './worker-shell.js';

export const learnerRole: RoleMain = async (ctx) => {
  const weights = Channel.create('weights', 'pub', null, ctx.rejected, ctx.tuning);
  await weights.bind(ctx.endpoints.weights);
  const samples = Channel.create('samples', 'dealer', null, ctx.rejected, ctx.tuning);
  samples.connect(ctx.endpoints.samples);
  ctx.counters.policyVersion = 0;
  return {
    async stop() {
      weights.close();
      samples.close();
    },
  };
};
