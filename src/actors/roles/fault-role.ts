// The fault-injection role, for tests and chaos runs: it registers and heartbeats like any
// worker, binds a probe socket that accepts act requests (so malformed frames can be aimed at a
// worker's socket), and can crash on a timer (`fault.crash_after_ms`) or on command. It can start
// slowly (`fault.start_delay_ms`) and counts the role faults it is sent (`counters.slow`,
// `counters['host-down']`), so tests can see what reaches a role that was not up yet.
import { setTimeout as sleep } from 'node:timers/promises';
import { Channel, Inbound } from '../../protocol/index.js';
import type { RoleMain } from './worker-shell.js';

export const faultRole: RoleMain = async (ctx) => {
  if (ctx.config.fault.start_delay_ms > 0) await sleep(ctx.config.fault.start_delay_ms);
  const endpoint = ctx.endpoints.probe[ctx.workerId];
  const probe = endpoint
    ? Channel.create('probe', 'router', Inbound.actToInference, ctx.rejected, ctx.tuning)
    : null;
  if (probe && endpoint) {
    await probe.bind(endpoint);
    void probe.serve(() => {
      ctx.counters.probed = (ctx.counters.probed ?? 0) + 1;
    });
  }
  const crashAfter = ctx.config.fault.crash_after_ms;
  if (crashAfter !== null) {
    setTimeout(() => {
      throw new Error(ctx.config.fault.crash_message);
    }, crashAfter);
  }
  return {
    injectFault(fault) {
      ctx.counters[fault] = (ctx.counters[fault] ?? 0) + 1;
    },
    async stop() {
      probe?.close();
    },
  };
};
