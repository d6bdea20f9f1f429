// The env role: one per web host. It drives one Chromium (src/envs), pulls tasks from the
// supervisor (pull-based, so a busy worker never holds more than it runs), asks inference for each
// action, and pushes the finished, scored trajectory to replay.
//
// With no external host configured (`webarena_host: null`), the worker serves its own MiniArena
// instance on a free port: one independent instance per env worker, reset before every episode,
// and restarted together with the worker.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BrowserEnv,
  labelKey,
  loadTaskFile,
  NO_LABEL,
  type Observation,
  readTaskLabels,
  type Task,
  type TaskLabel,
  type TaskLabels,
  ttiActionText,
} from '../../envs/index.js';
import {
  type MiniArenaHost,
  startMiniArenaHost,
  WEBARENA_SITES,
  type WebArenaSite,
} from '../../envs/miniarena/index.js';
import {
  type EpisodeResultMessage,
  Inbound,
  type TaskAssignmentMessage,
  type Trajectory,
  type Observation as WireObservation,
} from '../protocol.js';
import { Channel, Requester } from '../transport.js';
import type { RoleContext, RoleMain } from './worker-shell.js';

const TASK_REQUEST_TIMEOUT_MS = 5000;
/** How long replay and the supervisor have to acknowledge, and how often the env asks again. */
const ACK_TIMEOUT_MS = 10000;
const ACK_ATTEMPTS = 6;
/** WebArena's viewport, in CSS pixels. */
const VIEWPORT = { width: 1280, height: 720 };

/** WebArena's ports on one host, as TTI's `webarena_host` names it. */
function webArenaHosts(host: string): Record<string, string> {
  const base = /^https?:\/\//.test(host) ? host.replace(/\/$/, '') : `http://${host}`;
  return {
    __SHOPPING__: `${base}:7770`,
    __SHOPPING_ADMIN__: `${base}:7780/admin`,
    __REDDIT__: `${base}:9999`,
    __GITLAB__: `${base}:8023`,
    __MAP__: `${base}:3000`,
    __WIKIPEDIA__: `${base}:8888`,
  };
}

function inViewport(node: Observation['nodes'][number]): number {
  const b = node.bounds;
  if (b === null) return 0;
  const [x, y, width, height] = b;
  const visible = x < VIEWPORT.width && y < VIEWPORT.height && x + width > 0 && y + height > 0;
  return visible ? 1 : 0;
}

function toWire(observation: Observation): WireObservation {
  const nodes = observation.nodes;
  return {
    text: observation.text,
    url: observation.url,
    nodes: {
      ids: nodes.map((n) => Number(n.id)),
      roles: nodes.map((n) => n.role),
      names: nodes.map((n) => n.name),
      depths: nodes.map((n) => n.depth),
      inViewport: nodes.map(inViewport),
    },
    note: observation.notes.length > 0 ? observation.notes.join('\n') : null,
    screenshotFrame: null,
  };
}

/** Where this worker's episodes run: its own MiniArena, or the configured WebArena host. */
async function webHost(
  ctx: RoleContext,
): Promise<{ hosts: Record<string, string>; authDir: string; arena: MiniArenaHost | null }> {
  const authDir = path.join(ctx.runDir ?? '.', 'auth', ctx.workerId);
  if (ctx.config.webarena_host !== null)
    return { hosts: webArenaHosts(ctx.config.webarena_host), authDir, arena: null };
  // The suite's own seed: the tasks' answers were computed from that data.
  const arena = await startMiniArenaHost();
  // Tasks name Playwright storage states (./.auth/<site>_state.json): write this host's logins there.
  mkdirSync(path.join(authDir, '.auth'), { recursive: true });
  for (const site of Object.keys(WEBARENA_SITES) as WebArenaSite[]) {
    writeFileSync(
      path.join(authDir, '.auth', `${site}_state.json`),
      JSON.stringify(arena.storageState([site])),
    );
  }
  ctx.log.info(`MiniArena for ${ctx.workerId} at ${arena.origin}`);
  return { hosts: arena.placeholders, authDir, arena };
}

export const envRole: RoleMain = async (ctx) => {
  const { hosts, authDir, arena } = await webHost(ctx);
  // Screenshots only go into records (inference gets the text), so they are taken per episode, below.
  const recording = ctx.config.env.record_episodes && ctx.runDir !== null;
  const env = await BrowserEnv.launch({
    actionFormat: ctx.config.env.action_format,
    actionTimeoutMs: ctx.config.env.action_timeout_ms,
    episodeTimeoutMs: ctx.config.env.episode_timeout_ms,
    allowedOrigins: arena ? [arena.origin] : Object.values(hosts).map((url) => new URL(url).origin),
    ...(recording ? { recordDir: path.join(ctx.runDir ?? '.', 'episodes') } : {}),
  });

  const taskChannel = Channel.create('tasks', 'dealer', Inbound.tasksToEnv, ctx.rejected, ctx.tuning);
  taskChannel.connect(ctx.endpoints.tasks);
  const tasks = new Requester(taskChannel);
  const actChannel = Channel.create('act', 'dealer', Inbound.actToEnv, ctx.rejected, ctx.tuning);
  // One DEALER connected to every inference worker: requests are spread over them.
  for (const endpoint of Object.values(ctx.endpoints.act)) actChannel.connect(endpoint);
  const act = new Requester(actChannel);
  const trajectoryChannel = Channel.create(
    'trajectories',
    'dealer',
    Inbound.trajectoriesToEnv,
    ctx.rejected,
    ctx.tuning,
  );
  trajectoryChannel.connect(ctx.endpoints.trajectories);
  const trajectories = new Requester(trajectoryChannel);

  const taskFiles = new Map<string, Map<string, Task>>();
  const labels: TaskLabels = new Map();
  const taskFor = (assignment: TaskAssignmentMessage): { task: Task; label: TaskLabel } => {
    let byId = taskFiles.get(assignment.taskFile);
    if (byId === undefined) {
      byId = new Map(loadTaskFile(assignment.taskFile, { hosts, authDir }).map((t) => [t.id, t]));
      readTaskLabels(assignment.taskFile, labels);
      taskFiles.set(assignment.taskFile, byId);
    }
    const task = byId.get(assignment.taskId);
    if (task === undefined) throw new Error(`no task ${assignment.taskId} in ${assignment.taskFile}`);
    return { task, label: labels.get(labelKey(assignment.taskFile, task.id)) ?? NO_LABEL };
  };
  // Eval episodes are few and are what people look at; collection pays for screenshots only when asked.
  const screenshotFor = (assignment: TaskAssignmentMessage): boolean =>
    recording &&
    (ctx.config.env.screenshot === true || (ctx.config.env.screenshot === 'eval' && assignment.greedy));
  const count = (key: string, by = 1) => {
    ctx.counters[key] = (ctx.counters[key] ?? 0) + by;
  };

  /** Sends until acknowledged: a successful trajectory must not be lost to a replay restart. */
  const storeTrajectory = async (trajectory: Trajectory): Promise<boolean> => {
    for (let attempt = 1; attempt <= ACK_ATTEMPTS && (attempt === 1 || running); attempt++) {
      const ack = await trajectories.request(
        trajectory,
        (m) => m.episodeId === trajectory.episodeId,
        ACK_TIMEOUT_MS,
      );
      if (ack !== null) return ack.message.kept;
      ctx.log.warn(`replay did not acknowledge ${trajectory.episodeId} (attempt ${attempt}); sending again`);
    }
    throw new Error(`replay never acknowledged trajectory ${trajectory.episodeId}`);
  };

  const runEpisode = async (assignment: TaskAssignmentMessage, requestId: number): Promise<void> => {
    const { task, label } = taskFor(assignment);
    const started = Date.now();
    await arena?.reset();
    let observation: Observation | null = await env.reset(task, {
      horizon: assignment.horizon,
      minTry: assignment.minTry,
      episodeId: assignment.episodeId,
      screenshot: screenshotFor(assignment),
      labels: label,
      run: {
        iteration: assignment.iteration,
        split: assignment.split,
        mode: assignment.greedy ? 'eval' : 'collect',
        workerId: ctx.workerId,
        taskFile: assignment.taskFile,
      },
    });
    const versions: number[] = [];
    const seen: WireObservation[] = [];
    const history: string[] = [];
    for (let step = 0; observation !== null; step++) {
      const wire = toWire(observation);
      seen.push(wire);
      const reply = await act.request(
        {
          type: 'act_request',
          episodeId: assignment.episodeId,
          step,
          horizon: assignment.horizon,
          intent: task.intent,
          observation: wire,
          history,
          greedy: assignment.greedy,
        },
        (m) => m.episodeId === assignment.episodeId && m.step === step,
        ctx.config.env.act_timeout_ms,
      );
      if (reply === null) {
        await env.abandon();
        throw new Error(`no action from inference within ${ctx.config.env.act_timeout_ms} ms`);
      }
      versions.push(reply.message.policyVersion);
      history.push(ttiActionText(reply.message.reply));
      const result = await env.step(reply.message.reply, { policyVersion: reply.message.policyVersion });
      count('steps');
      observation = result.observation;
      if (!result.done || !result.record) continue;
      const record = result.record;
      const reward = record.verdict.success ? 1 : 0;
      let kept = false;
      if (assignment.toReplay) {
        const trajectory: Trajectory = {
          type: 'trajectory',
          episodeId: assignment.episodeId,
          taskId: task.id,
          site: task.sites[0] ?? 'unknown',
          intent: task.intent,
          horizon: assignment.horizon,
          iteration: assignment.iteration,
          reward,
          answer: record.answer,
          steps: record.steps.map((s, i) => ({
            observation: s.observation,
            url: seen[i]?.url ?? s.url,
            nodes: seen[i]?.nodes ?? { ids: [], roles: [], names: [], depths: [], inViewport: [] },
            note: seen[i]?.note ?? null,
            reply: s.reply ?? s.actionText,
            action: s.actionText,
            policyVersion: versions[i] ?? 0,
          })),
        };
        kept = await storeTrajectory(trajectory);
      }
      count('episodes');
      if (reward > 0) count('successes');
      if (record.verdict.status !== 'scored') count('unscored');
      ctx.log.info(
        `episode ${assignment.episodeId} (task ${task.id}, ${assignment.split}): ${record.endReason} after ` +
          `${record.steps.length} steps, reward ${reward}${kept ? ', kept' : ''} (${record.verdict.why})`,
      );
      await reportResult({
        type: 'episode_result',
        workerId: ctx.workerId,
        requestId,
        episodeId: assignment.episodeId,
        taskFile: assignment.taskFile,
        taskId: task.id,
        split: assignment.split,
        iteration: assignment.iteration,
        reward,
        steps: record.steps.length,
        answer: record.answer,
        endReason: record.endReason,
        kept,
        policyVersions: [...new Set(versions)],
        durationMs: Date.now() - started,
      });
      return;
    }
  };

  /** The supervisor counts the iteration's episodes from these; a lost one would stall it. */
  const reportResult = async (result: EpisodeResultMessage): Promise<void> => {
    for (let attempt = 1; attempt <= ACK_ATTEMPTS && (attempt === 1 || running); attempt++) {
      const ack = await tasks.request(
        result,
        (m) => m.type === 'result_ack' && m.episodeId === result.episodeId,
        ACK_TIMEOUT_MS,
      );
      if (ack !== null) return;
    }
    ctx.log.warn(`the supervisor did not acknowledge the result of ${result.episodeId}`);
  };

  let running = true;
  let requestId = 0;
  const loop = (async () => {
    while (running) {
      const id = requestId++;
      const reply = await tasks.request(
        { type: 'task_request', workerId: ctx.workerId, requestId: id },
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
      ctx.setBusy(true);
      try {
        await runEpisode(reply.message, id);
      } catch (error) {
        // One bad episode (a page that hangs, a task that does not load) must not stop the worker.
        count('errors');
        ctx.log.warn(`episode ${reply.message.episodeId} failed: ${(error as Error).message}`);
      } finally {
        ctx.setBusy(false);
      }
    }
  })();

  return {
    async stop(deadlineMs) {
      running = false;
      // The episode in flight finishes (or the deadline cuts it); then the browser and host go.
      await Promise.race([loop, sleep(Math.max(0, deadlineMs - 1000))]);
      tasks.close();
      act.close();
      trajectories.close();
      await env.close().catch(() => undefined);
      await arena?.close();
    },
  };
};
