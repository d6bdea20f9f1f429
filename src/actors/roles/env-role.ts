// The env role: one per web host. It pulls tasks from the supervisor (pull-based, so a busy
// worker never gets more than it asked for), asks inference for actions and pushes finished
// trajectories to replay. Running episodes in Chromium arrives with the browser env (src/envs).
import { setTimeout as sleep } from 'node:timers/promises';
import { Inbound } from '../protocol.js';
import { Channel, Requester } from '../transport.js';
import type { RoleMain } from './worker-shell.js';

const TASK_REQUEST_TIMEOUT_MS = 5000;

export const envRole: RoleMain = async (ctx) => {
  const taskChannel = Channel.create('tasks', 'dealer', Inbound.tasksToEnv, ctx.rejected, ctx.tuning);
  taskChannel.connect(ctx.endpoints.tasks);
  const tasks = new Requester(taskChannel);
  const trajectories = Channel.create('trajectories', 'push', null, ctx.rejected, ctx.tuning);
  trajectories.connect(ctx.endpoints.trajectories);

  let running = true;
  let requestId = 0;
  const loop = (async () => {
    while (running) {
      const id = requestId++;
      const reply = await tasks.request(
        { type: 'task_request', workerId: ctx.workerId, requestId: id },
        (m) => m.requestId === id,
        TASK_REQUEST_TIMEOUT_MS,
      );
      if (!running) return;
      if (reply === null) continue;
      if (reply.message.type === 'no_task') {
        await sleep(reply.message.retryAfterMs);
        continue;
      }
      ctx.counters.tasksReceived = (ctx.counters.tasksReceived ?? 0) + 1;
      ctx.log.warn(
        `task ${reply.message.episodeId} received, but this build has no browser env to run it yet`,
      );
    }
  })();

  return {
    async stop() {
      running = false;
      await Promise.race([loop, sleep(TASK_REQUEST_TIMEOUT_MS)]);
      tasks.close();
      trajectories.close();
    },
  };
};
