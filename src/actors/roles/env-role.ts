// The env role: one per web host. It drives one Chromium (src/envs), pulls tasks from the
// supervisor (pull-based: a busy worker holds only what it runs), runs each as an episode
// (src/episode, with the run's strategies from src/strategies) asking inference for each action,
// and pushes the scored trajectory to replay. This file is the sockets and the loop; the run's
// suite (src/suites) starts the worker's web host(s), turns task refs into tasks and shows pages.
import { setTimeout as sleep } from 'node:timers/promises';
import { EpisodeRunner } from '../../episode/index.js';
import {
  Channel,
  countTiming,
  type EpisodeResultMessage,
  Inbound,
  Requester,
  type TaskAssignmentMessage,
  type TrajectoryMessage,
} from '../../protocol/index.js';
import { strategiesFor } from '../../strategies/index.js';
import { loadSuite, suiteWorkerContext } from '../../suites/index.js';
import { envActChannel } from './env-act-channel.js';
import { browserRecords, launchEnv } from './env-browser.js';
import { HostHealth } from './host-health.js';
import { loginFailed } from './login-failure.js';
import { resetChangedSites } from './site-reset.js';
import { requestUntilAnswered } from './until-acknowledged.js';
import type { RoleMain } from './worker-shell.js';

const TASK_REQUEST_TIMEOUT_MS = 5000;
/** How long replay and the supervisor have to acknowledge, and how often the env asks again. */
const ACK_TIMEOUT_MS = 10000;
const ACK_ATTEMPTS = 6;
const ACT_RESEND_MS = 5000;
const EPISODE_ATTEMPTS = 2;
const EPISODE_RETRY_MS = 1000;
/** A task is asked for only if the web host answered within this long. */
const HOST_RECHECK_MS = 5000;
/** How long the `host-down` fault keeps the worker's own host closed. */
const HOST_OUTAGE_MS = 10000;

export const envRole: RoleMain = async (ctx) => {
  // A predecessor's Chromium that outlived it goes first; this worker's own is recorded for its successor.
  const recordOwnBrowsers = browserRecords(ctx);
  const suite = await loadSuite(ctx.config);
  const host = await suite.start(
    suiteWorkerContext({
      config: ctx.config,
      workerId: ctx.workerId,
      runDir: ctx.runDir,
      log: { info: (m) => ctx.log.info(m), warn: (m) => ctx.log.warn(m) },
    }),
  );
  const health = new HostHealth(
    () => host.origins,
    (down, label) => {
      ctx.counters.hostDown = down ? 1 : 0;
      ctx.labels.host = label;
    },
    (message) => ctx.log.warn(message),
  );
  const { env, chatPolicy, recording, viewport, offers } = await launchEnv(ctx, host);
  recordOwnBrowsers();

  const taskChannel = Channel.create('tasks', 'dealer', Inbound.tasksToEnv, ctx.rejected, ctx.tuning);
  taskChannel.connect(ctx.endpoints.tasks);
  const tasks = new Requester(taskChannel);
  const actChannel = envActChannel(ctx);
  const act = new Requester(actChannel.channel);
  const trajectoryChannel = Channel.create(
    'trajectories',
    'dealer',
    Inbound.trajectoriesToEnv,
    ctx.rejected,
    ctx.tuning,
  );
  trajectoryChannel.connect(ctx.endpoints.trajectories);
  const trajectories = new Requester(trajectoryChannel);

  let running = true;
  // a message that must not be lost goes again while the worker runs (its first send always)
  const acknowledged = { waitMs: ACK_TIMEOUT_MS, attempts: ACK_ATTEMPTS };
  const whileRunning = (attempt: number) => attempt === 1 || running;

  /** Sends until acknowledged: a successful trajectory must not be lost to a replay restart. */
  const storeTrajectory = async (trajectory: TrajectoryMessage): Promise<boolean> => {
    const ack = await requestUntilAnswered(
      trajectories,
      trajectory,
      (m) => m.episodeId === trajectory.episodeId,
      {
        // no cap: replay holds a write a full disk refused and acknowledges it once space returns
        waitMs: ACK_TIMEOUT_MS,
        goesOn: whileRunning,
        onUnanswered: (attempt) =>
          ctx.log.warn(
            `replay did not acknowledge ${trajectory.episodeId} (attempt ${attempt}); sending again`,
          ),
      },
    );
    if (ack === null) throw new Error(`replay never acknowledged trajectory ${trajectory.episodeId}`);
    return ack.message.kept;
  };
  /** The supervisor counts the iteration's episodes from these; a lost one would stall it. */
  const reportResult = async (result: EpisodeResultMessage): Promise<void> => {
    const matches = (m: { type: string; episodeId?: string }) =>
      m.type === 'result_ack' && m.episodeId === result.episodeId;
    const ack = await requestUntilAnswered(tasks, result, matches, { ...acknowledged, goesOn: whileRunning });
    if (ack === null) ctx.log.warn(`the supervisor did not acknowledge the result of ${result.episodeId}`);
  };
  /** Hands an episode back to the supervisor for another worker (this one's host is down). */
  const giveBack = async (episodeId: string, requestId: number, reason: string): Promise<void> => {
    const message = {
      type: 'episode_returned',
      workerId: ctx.workerId,
      ...ctx.signature,
      requestId,
      episodeId,
      reason,
    };
    const matches = (m: { type: string; episodeId?: string }) =>
      m.type === 'result_ack' && m.episodeId === episodeId;
    await requestUntilAnswered(tasks, message, matches, { ...acknowledged, goesOn: () => running });
  };

  const taskOf = (a: TaskAssignmentMessage) => host.task({ file: a.taskFile, id: a.taskId });
  const runner = new EpisodeRunner(
    {
      workerId: ctx.workerId,
      signature: ctx.signature,
      config: ctx.config,
      env,
      counters: ctx.counters,
      labels: ctx.labels,
      log: ctx.log,
      recording,
      chatPolicy,
      // The trainable policy's features are made here, where the page is (model.featurize).
      featurizeHere: !chatPolicy && ctx.config.model.featurize === 'env',
      maxImages: ctx.config.chat.max_images,
      viewport,
      offers,
      actTimeoutMs: ctx.config.env.act_timeout_ms,
      task: taskOf,
      beforeReset: async () => host.beforeEpisode?.(),
      // reset relaunches a Chromium that died: the record follows
      afterReset: recordOwnBrowsers,
      store: storeTrajectory,
      // A request that reached an inference worker as it was killed is lost with it: it is sent
      // again every ACT_RESEND_MS (to whichever worker is up) until act_timeout_ms; the first reply counts.
      ask: (request, matches, frames) =>
        requestUntilAnswered(act, request, matches, {
          waitMs: ACT_RESEND_MS,
          withinMs: ctx.config.env.act_timeout_ms,
          goesOn: whileRunning,
          onUnanswered: () => {
            ctx.counters.actResends = (ctx.counters.actResends ?? 0) + 1;
          },
          frames,
        }),
    },
    strategiesFor(ctx.config),
  );

  let requestId = 0;
  await health.check();
  let waitingSince = Date.now(); // waiting for a task: from an episode's end to the next task
  const loop = (async () => {
    while (running) {
      // A worker whose host is down takes no tasks: they go to the others until it answers again.
      if (!(await health.recheck(HOST_RECHECK_MS))) {
        await health.waitUntilHealthy(() => running);
        continue;
      }
      const id = requestId++;
      const reply = await tasks.request(
        { type: 'task_request', workerId: ctx.workerId, ...ctx.signature, requestId: id },
        (m) => m.type !== 'result_ack' && m.requestId === id,
        TASK_REQUEST_TIMEOUT_MS,
      );
      if (!running) return;
      if (reply === null) continue;
      if (reply.message.type === 'result_ack') continue;
      if (reply.message.type === 'no_task') {
        await sleep(reply.message.retryAfterMs);
        continue;
      }
      const assignment = reply.message;
      ctx.setBusy(true);
      // One bad episode (a page that hangs, a task that does not load) must not stop the worker. A
      // failure is often passing (a peer restarting), and the supervisor hands the episode to
      // someone else only once it is long overdue: it is tried again here first, under its own id.
      for (let attempt = 1; attempt <= EPISODE_ATTEMPTS && running; attempt++) {
        try {
          const result = await runner.run(assignment, id, attempt === 1 ? Date.now() - waitingSince : 0);
          waitingSince = Date.now();
          if (result.timing) countTiming(ctx.counters, result.timing);
          await resetChangedSites(host, taskOf(assignment).task, health, ctx); // before the report frees them
          await reportResult(result);
          break;
        } catch (error) {
          waitingSince = Date.now(); // a failed episode's time is no task wait
          // a failed login is the host's fault: it goes unhealthy and the episode to another worker
          const login = loginFailed(error, () => taskOf(assignment).task, env, health, ctx);
          if (login !== null) {
            await giveBack(assignment.episodeId, id, `web host unhealthy: ${login}`);
            ctx.counters.givenBack = (ctx.counters.givenBack ?? 0) + 1;
            break;
          }
          ctx.counters.errors = (ctx.counters.errors ?? 0) + 1;
          const why = (error as Error).message;
          if (!(await health.check())) {
            ctx.log.warn(`episode ${assignment.episodeId} failed (${why}); the host is down: giving it back`);
            await giveBack(assignment.episodeId, id, `web host down: ${ctx.labels.host ?? why}`);
            ctx.counters.givenBack = (ctx.counters.givenBack ?? 0) + 1;
            break;
          }
          const again = attempt < EPISODE_ATTEMPTS && running ? '; trying it again' : '';
          ctx.log.warn(`episode ${assignment.episodeId} failed: ${why}${again}`);
          if (again) await sleep(EPISODE_RETRY_MS);
        }
      }
      ctx.setBusy(false);
    }
  })();

  return {
    onCommand(command) {
      if (command.command === 'act_endpoints') actChannel.use(command.act);
    },
    injectFault(fault) {
      if (fault !== 'host-down') return;
      if (!host.outage) {
        ctx.log.warn(`host-down: the ${suite.name} suite's host cannot be taken down; left alone`);
        return;
      }
      void host.outage(HOST_OUTAGE_MS).catch((e: Error) => ctx.log.error(`host-down: ${e.message}`));
    },
    async stop(deadlineMs) {
      running = false;
      // The episode in flight finishes (or the deadline cuts it); then the browser and host go.
      await Promise.race([loop, sleep(Math.max(0, deadlineMs - 1000))]);
      tasks.close();
      act.close();
      trajectories.close();
      await env.close().catch(() => undefined);
      await host.close().catch(() => undefined);
    },
  };
};
