// The env worker's act socket: one DEALER connected to every inference worker, so requests are
// spread over them. The set changes when an inference worker on another machine joins or is lost
// (an `act_endpoints` command).
import { Channel, Inbound } from '../../protocol/index.js';
import type { RoleContext } from './worker-shell.js';

export interface EnvActChannel {
  channel: Channel<typeof Inbound.actToEnv>;
  /** Connects to the endpoints of `act` and disconnects from those no longer in it. */
  use(act: Record<string, string>): void;
}

export function envActChannel(ctx: RoleContext): EnvActChannel {
  const channel = Channel.create('act', 'dealer', Inbound.actToEnv, ctx.rejected, ctx.tuning);
  let endpoints = new Set<string>();
  let first = true; // the run's own endpoints go unlogged; later changes are logged
  const use = (act: Record<string, string>): void => {
    const next = new Set(Object.values(act));
    for (const endpoint of endpoints) if (!next.has(endpoint)) channel.disconnect(endpoint);
    for (const endpoint of next) if (!endpoints.has(endpoint)) channel.connect(endpoint);
    const changed = next.size !== endpoints.size || [...next].some((e) => !endpoints.has(e));
    if (changed && !first) ctx.log.info(`act endpoints now: ${[...next].join(', ') || 'none'}`);
    endpoints = next;
    first = false;
  };
  use(ctx.endpoints.act);
  return { channel, use };
}
