// The inference worker's act socket. A local worker binds its own ROUTER, which env workers connect
// to. One that joined from another machine binds nothing (it dials out only, so it needs no open
// port or address of its own): it connects a routed DEALER to the supervisor's act relay, which
// passes env workers' requests through with their routing frame, and it answers the same way. It
// says `act_ready` there every second (with its key's tag): the relay sends requests only to
// workers so announced and takes each reply only from the one its request went to. The relay holds
// each request to the key of the worker it names (the remote worker has no server secret to check
// with); a local worker checks its own (RoleContext.speaks).
import { ACT_READY_EVERY_MS, Channel, Inbound } from '../../protocol/index.js';
import type { RoleContext } from './worker-shell.js';

export interface ActSocket {
  channel: Channel<typeof Inbound.actToInference>;
  /** Starts taking requests: bound, or connected to the relay. */
  open(): Promise<void>;
  /** where requests come from, for logs */
  where: string;
}

export function actSocket(ctx: RoleContext): ActSocket {
  const own = ctx.endpoints.act[ctx.workerId];
  if (own !== undefined && !ctx.remote) {
    const channel = Channel.create('act', 'router', Inbound.actToInference, ctx.rejected, ctx.tuning);
    return { channel, open: () => channel.bind(own), where: own };
  }
  const relay = ctx.endpoints.relay;
  if (relay === undefined)
    throw new Error(`no act endpoint for ${ctx.workerId}, and the run has no act relay for remote inference`);
  const channel = Channel.create('act', 'routed-dealer', Inbound.actToInference, ctx.rejected, ctx.tuning);
  return {
    channel,
    open: async () => {
      channel.connect(relay.back);
      const ready = { type: 'act_ready', workerId: ctx.workerId, ...ctx.signature };
      const announce = () =>
        channel.send(ready).catch(() => {
          // closed: the worker is stopping
          clearInterval(every);
        });
      const every = setInterval(announce, ACT_READY_EVERY_MS);
      every.unref();
      void announce();
    },
    where: `the supervisor's act relay (${relay.back})`,
  };
}
