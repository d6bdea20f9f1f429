// The supervisor: a nact actor system inside `tti-run train`. It binds the run's sockets, spawns a
// WorkerActor per child process and a RunActor for the run's state, answers status and control
// requests, and shuts everything down in order on a stop.
import { timingSafeEqual } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dispatch, query, type Ref, start, stop as stopSystem } from 'nact';
import { z } from 'zod';
import type { Config } from '../../config/index.js';
import { evalSubset, finalTemperature, type TaskRef } from '../../curriculum/index.js';
import { formatTaskIssue, validateTaskFile } from '../../envs/index.js';
import { miniwobTaskFile, miniwobTaskIds, resolveMiniwobTasks } from '../../envs/miniwob/index.js';
import type { Logger } from '../../log/index.js';
import {
  Channel,
  type Endpoints,
  Inbound,
  needsCurve,
  RejectedFrames,
  type Role,
  type RunEvent,
  type SocketTuning,
  type StatusSnapshot,
  type TrainedMessage,
  type WorkerSnapshot,
} from '../../protocol/index.js';
import {
  curveKeysFile,
  ensureCurveKeys,
  type RunDir,
  type SupervisorInfo,
  writeFileAtomic,
} from '../../run/index.js';
import { projectRoot } from '../../util/index.js';
import { planEndpoints } from './endpoints.js';
import { EpisodeQueue } from './episode-queue.js';
import { type EvalSummary, labelKey, readTaskLabels, type TaskLabels, templateIn } from './eval-summary.js';
import { type RunMsg, type RunProgress, type RunView, spawnRunActor } from './run-actor.js';
import {
  freshLoopState,
  type LoopState,
  type MetricsRow,
  type Phase,
  runEvalOnly,
  runTtiLoop,
} from './tti-loop.js';
import { spawnWorkerActor, type WorkerMsg, type WorkerSpec } from './worker-actor.js';

/** What the run does: TTI's training loop, or one eval pass (`tti-run eval`). */
export type RunMode =
  | { kind: 'train' }
  | { kind: 'eval'; split: 'train' | 'test'; horizon: number; minTry: number; limit: number | null };

export interface SupervisorOptions {
  config: Config;
  runDir: RunDir;
  token: string;
  resume: boolean;
  log: Logger;
  mode?: RunMode;
}

export interface RunOutcome {
  state: 'stopped' | 'failed';
  reason: string;
  /** `completed`: the loop (or the eval) ran to its end */
  completed: boolean;
  /** the eval's summary, in eval mode */
  evaluation: (EvalSummary & { episodes: number }) | null;
}

export interface SupervisorHandle {
  info: SupervisorInfo;
  snapshot(): Promise<StatusSnapshot>;
  stop(reason: string): Promise<RunOutcome>;
  done: Promise<RunOutcome>;
  /** called with each run event, for the foreground console view */
  onEvent(listener: (event: RunEvent) => void): void;
}

const Totals = z.object({
  envSteps: z.number(),
  episodes: z.number(),
  successes: z.number(),
  seen: z.number(),
  kept: z.number(),
});
const RunStateFile = z.object({
  iteration: z.number().int().nonnegative(),
  policyVersion: z.number().int().nonnegative(),
  horizon: z.number().int().positive(),
  randomState: z.number().optional(),
  totals: Totals.optional(),
});

/** Roles stop in this order, so that work in flight reaches the roles that keep it. */
const SHUTDOWN_PHASES: readonly (readonly Role[])[] = [
  ['env', 'fault'],
  ['inference', 'learner'],
  ['replay'],
];
const QUERY_TIMEOUT_MS = 2000;

export function workerSpecs(config: Config): WorkerSpec[] {
  const specs: WorkerSpec[] = [];
  for (const role of ['replay', 'learner', 'inference', 'env', 'fault'] as const) {
    for (let i = 0; i < config.workers[role]; i++) specs.push({ role, id: `${role}-${i}` });
  }
  return specs;
}

const DEFAULT_TASKS = {
  train: path.join(projectRoot, 'tasks', 'miniarena', 'train.json'),
  test: path.join(projectRoot, 'tasks', 'miniarena', 'test.json'),
};
/** An episode running this much longer than its worst case goes to another worker. */
const EPISODE_GRACE_MS = 60000;
const INFERENCE_SWAP_TIMEOUT_MS = 60000;

/** Task ids of a task file, validated now so that a broken file stops the run at its start. */
function loadTaskRefs(file: string): TaskRef[] {
  const absolute = path.resolve(file);
  const report = validateTaskFile(absolute);
  if (report.issues.length > 0) {
    const shown = report.issues.slice(0, 5).map((issue) => `  - ${formatTaskIssue(issue)}`);
    const more = report.issues.length > 5 ? `\n  (+${report.issues.length - 5} more)` : '';
    throw new Error(
      `task file ${absolute} has ${report.issues.length} error(s):\n${shown.join('\n')}${more}`,
    );
  }
  return report.tasks.map((task) => ({ file: absolute, id: task.id }));
}

/** MiniWoB++ episodes: each configured task with its train or test seeds, labelled by task name. */
function miniwobTaskRefs(
  config: Config,
  labels: TaskLabels,
): { file: string; names: string[]; train: TaskRef[]; test: TaskRef[] } {
  const m = config.env.miniwob;
  const source = { url: m.url, dir: m.dir };
  const names = resolveMiniwobTasks(source, m.tasks);
  const file = miniwobTaskFile(source);
  const refs = (split: 'train' | 'test', seeds: number): TaskRef[] =>
    miniwobTaskIds(names, split, seeds).map((id) => {
      labels.set(labelKey(file, id), { template: id.replace(/@\d+$/, ''), tier: null });
      return { file, id };
    });
  return { file, names, train: refs('train', m.train_seeds), test: refs('test', m.eval_episodes) };
}

function tokensMatch(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readLoopState(runDir: RunDir, config: Config, resume: boolean, log: Logger): LoopState {
  const fresh = freshLoopState(config);
  if (!resume) return fresh;
  if (!existsSync(runDir.state)) {
    log.info(`--resume: nothing to resume in ${runDir.root}; starting a new run`);
    return fresh;
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(runDir.state, 'utf8'));
  } catch (error) {
    throw new Error(`--resume: ${runDir.state} is not JSON: ${(error as Error).message}`);
  }
  const parsed = RunStateFile.safeParse(json);
  if (!parsed.success) throw new Error(`--resume: ${runDir.state} is malformed: ${parsed.error.message}`);
  const s = parsed.data;
  log.info(`resuming after iteration ${s.iteration}, policy version ${s.policyVersion}`);
  return {
    iteration: s.iteration,
    policyVersion: s.policyVersion,
    horizon: s.horizon,
    randomState: s.randomState ?? fresh.randomState,
    totals: s.totals ?? fresh.totals,
  };
}

/** metrics.jsonl keeps one row per completed iteration: rows past the resumed state are dropped. */
function trimMetrics(file: string, lastIteration: number): void {
  if (!existsSync(file)) return;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const kept = lines.filter((line) => {
    try {
      return (JSON.parse(line) as { iteration?: number }).iteration! <= lastIteration;
    } catch {
      return false;
    }
  });
  if (kept.length !== lines.length) writeFileAtomic(file, kept.length > 0 ? `${kept.join('\n')}\n` : '');
}

export async function startSupervisor(options: SupervisorOptions): Promise<SupervisorHandle> {
  const { config, runDir, log } = options;
  const startedAt = Date.now();
  const runId = `${config.run_name}-${startedAt.toString(36)}`;
  const specs = workerSpecs(config);
  const ids = (role: Role) => specs.filter((s) => s.role === role).map((s) => s.id);
  const { endpoints, note } = await planEndpoints(runDir.sockets, config, {
    inference: ids('inference'),
    fault: ids('fault'),
  });
  if (note) log.warn(note);
  // Sockets other machines can reach are encrypted, with keys only the run directory holds.
  const curve = needsCurve(endpoints.control) ? ensureCurveKeys(runDir.root) : undefined;
  if (curve) log.info(`sockets are off loopback: CURVE, keys in ${curveKeysFile(runDir.root)} (0600)`);

  const mode: RunMode = options.mode ?? { kind: 'train' };
  const trainFile = path.resolve(config.tasks.train ?? DEFAULT_TASKS.train);
  const testFile = path.resolve(config.tasks.test ?? DEFAULT_TASKS.test);
  const labels: TaskLabels = new Map();
  const taskRefs = (file: string): TaskRef[] => {
    const refs = loadTaskRefs(file);
    readTaskLabels(file, labels);
    return refs;
  };
  const miniwob = config.env.suite === 'miniwob' ? miniwobTaskRefs(config, labels) : null;
  const wants = (split: 'train' | 'test') => mode.kind === 'train' || mode.split === split;
  const trainTasks = miniwob ? miniwob.train : wants('train') ? taskRefs(trainFile) : [];
  const testTasks = miniwob ? miniwob.test : wants('test') ? taskRefs(testFile) : [];
  if (miniwob) log.info(`tasks: MiniWoB++ ${miniwob.names.join(', ')} from ${miniwob.file}`);
  log.info(
    `tasks: ${trainTasks.length} train from ${miniwob?.file ?? trainFile}, ${testTasks.length} test from ${miniwob?.file ?? testFile}`,
  );

  const rejected = new RejectedFrames((message) => log.warn(message));
  const tuning: SocketTuning = {
    lingerMs: config.transport.linger_ms,
    heartbeatIntervalMs: 1000,
    heartbeatTimeoutMs: 5000,
    ...(curve ? { curve } : {}),
  };
  const control = Channel.create('control', 'router', Inbound.controlToSupervisor, rejected, tuning);
  const tasks = Channel.create('tasks', 'router', Inbound.tasksToSupervisor, rejected, tuning);
  const status = Channel.create('status', 'router', Inbound.statusToSupervisor, rejected, tuning);
  const events = Channel.create('events', 'pub', null, rejected, tuning);
  for (const [channel, endpoint] of [
    [control, endpoints.control],
    [tasks, endpoints.tasks],
    [status, endpoints.status],
    [events, endpoints.events],
  ] as const) {
    if (endpoint.startsWith('ipc://')) rmSync(endpoint.slice('ipc://'.length), { force: true });
    await channel.bind(endpoint);
  }

  const listeners: ((event: RunEvent) => void)[] = [];
  const publish = (kind: string, message: string): void => {
    const event: RunEvent = { type: 'run_event', at: Date.now(), kind, message };
    for (const listener of listeners) listener(event);
    void events.send(event).catch(() => undefined);
  };

  let loopState = readLoopState(runDir, config, options.resume, log);
  let progress: RunProgress = {
    iteration: loopState.iteration,
    policyVersion: loopState.policyVersion,
    horizon: loopState.horizon,
  };
  let runView: RunView = { ...progress, state: 'starting', reason: null };
  // state.json: what status shows and what --resume continues from. Eval runs keep their own.
  // `iteration` is the last *completed* one (the loop's state); the one under way is only shown,
  // or a resume would skip it.
  const saveState = (view: RunView): void => {
    runView = view;
    progress = { iteration: view.iteration, policyVersion: view.policyVersion, horizon: view.horizon };
    const saved = {
      ...progress,
      ...loopState,
      inProgress: progress.iteration,
      state: view.state,
      reason: view.reason,
    };
    writeFileAtomic(runDir.state, `${JSON.stringify(saved, null, 2)}\n`);
  };
  const metricsFile = path.join(runDir.root, 'metrics.jsonl');
  if (mode.kind === 'train') trimMetrics(metricsFile, loopState.iteration);

  const system = start();
  let shutdown: Promise<RunOutcome> | null = null;
  const runActor: Ref<RunMsg> = spawnRunActor(
    system,
    specs.map((s) => s.id),
    progress,
    (view) => {
      const changed = view.state !== runView.state;
      saveState(view);
      if (changed) publish('run_state', `run ${view.state}${view.reason ? `: ${view.reason}` : ''}`);
    },
  );
  saveState({ ...progress, state: 'starting', reason: null });

  const registered = (spec: WorkerSpec) => ({
    type: 'registered',
    runId,
    workerId: spec.id,
    endpoints,
    config,
    heartbeatIntervalMs: config.supervisor.heartbeat_interval_ms,
    supervisorTimeoutMs: Math.max(5000, config.supervisor.heartbeat_timeout_ms * 2),
  });

  const workers = new Map<string, { spec: WorkerSpec; ref: Ref<WorkerMsg> }>();
  for (const spec of specs) {
    const ref = spawnWorkerActor(system, spec, {
      config,
      runDir: runDir.root,
      controlEndpoint: endpoints.control,
      log,
      sendControl: (peer, message) => control.sendTo(peer, message),
      welcome: registered,
      onGaveUp: (_spec, message) => void requestStop(message, true),
      onReady: (s) => {
        dispatch(runActor, { kind: 'worker_ready', workerId: s.id });
        if (s.role === 'learner' && pendingTrain !== null) void sendTrain();
      },
      onEvent: publish,
      onExit: (s) => {
        if (s.role !== 'env') return;
        const back = queue.requeueWorker(s.id);
        if (back > 0) {
          log.warn(`${s.id} died holding ${back} episode(s); they go back to the queue`);
          publish('requeue', `${back} episode(s) of ${s.id} requeued`);
        }
      },
    });
    workers.set(spec.id, { spec, ref });
  }

  // control: register, heartbeat, errors and goodbyes from workers
  void control
    .serve(async ({ message, peer }) => {
      if (peer === null) return;
      const worker = workers.get(message.workerId);
      if (worker === undefined) {
        await control
          .sendTo(peer, { type: 'refused', reason: `no worker '${message.workerId}' in this run` })
          .catch(() => undefined);
        return;
      }
      switch (message.type) {
        case 'register':
          if (message.role !== worker.spec.role) {
            await control
              .sendTo(peer, {
                type: 'refused',
                reason: `${message.workerId} is a ${worker.spec.role} worker`,
              })
              .catch(() => undefined);
            return;
          }
          dispatch(worker.ref, { kind: 'register', pid: message.pid, peer });
          return;
        case 'heartbeat':
          dispatch(worker.ref, { kind: 'heartbeat', stats: message.stats, peer });
          return;
        case 'worker_error':
          dispatch(worker.ref, { kind: 'error', message: message.message });
          return;
        case 'bye':
          dispatch(worker.ref, { kind: 'bye', reason: message.reason });
          return;
        case 'trained':
          if (pendingTrain !== null && message.iteration === pendingTrain.iteration) {
            const { resolve } = pendingTrain;
            pendingTrain = null;
            resolve(message);
          }
          return;
      }
    })
    .catch((error: Error) => log.error(`control loop failed: ${error.message}`));

  // tasks: env workers pull episodes from the current phase and report each one when it is done
  const queue = new EpisodeQueue();
  const episodeTotals = { done: loopState.totals.episodes, success: loopState.totals.successes };
  // trajectories sent to replay (collection episodes) over the run, for status
  let replaySeen = loopState.totals.seen;
  let phase: Phase = 'starting';
  void tasks
    .serve(async ({ message, peer }) => {
      if (peer === null) return;
      if (message.type === 'episode_result') {
        const fresh = queue.complete(message);
        if (fresh) {
          episodeTotals.done += 1;
          if (message.reward > 0) episodeTotals.success += 1;
          if (message.split === 'train' && message.iteration > 0) replaySeen += 1;
        }
        await tasks
          .sendTo(peer, { type: 'result_ack', requestId: message.requestId, episodeId: message.episodeId })
          .catch(() => undefined);
        return;
      }
      if (message.type === 'episode_returned') {
        if (queue.giveBack(message.episodeId, message.workerId)) {
          log.warn(
            `${message.workerId} gave back ${message.episodeId} (${message.reason}); another worker gets it`,
          );
          publish('requeue', `${message.episodeId} of ${message.workerId} requeued: ${message.reason}`);
        }
        await tasks
          .sendTo(peer, { type: 'result_ack', requestId: message.requestId, episodeId: message.episodeId })
          .catch(() => undefined);
        return;
      }
      const spec = shutdown === null ? queue.next(message.workerId) : null;
      if (spec === null) {
        await tasks
          .sendTo(peer, { type: 'no_task', requestId: message.requestId, retryAfterMs: 200 })
          .catch(() => undefined);
        return;
      }
      await tasks
        .sendTo(peer, { type: 'task_assignment', requestId: message.requestId, ...spec })
        .catch((error: Error) => {
          log.warn(`episode ${spec.episodeId} for ${message.workerId} lost: ${error.message}`);
          queue.requeueWorker(message.workerId);
        });
    })
    .catch((error: Error) => log.error(`tasks loop failed: ${error.message}`));
  // An episode can outlive its worker's usefulness without the worker dying (a wedged browser
  // that still heartbeats): past its worst case, someone else runs it.
  const staleTimer = setInterval(() => {
    const back = queue.requeueOlderThan(config.env.episode_timeout_ms + EPISODE_GRACE_MS);
    if (back > 0) log.warn(`${back} episode(s) ran past ${config.env.episode_timeout_ms} ms; requeued`);
  }, 5000);
  staleTimer.unref();

  // learner: one `train` command per iteration, sent again if the learner restarts meanwhile
  let pendingTrain: {
    iteration: number;
    policyVersion: number;
    resolve: (m: TrainedMessage) => void;
  } | null = null;
  const learnerRef = [...workers.values()].find((w) => w.spec.role === 'learner')?.ref ?? null;
  const sendTrain = async (): Promise<void> => {
    const pending = pendingTrain;
    if (pending === null || learnerRef === null) return;
    const sent = await query(
      learnerRef,
      (replyTo: Ref<boolean>) => ({
        kind: 'send',
        message: {
          type: 'command',
          command: 'train',
          iteration: pending.iteration,
          policyVersion: pending.policyVersion,
        },
        replyTo,
      }),
      QUERY_TIMEOUT_MS,
    ).catch(() => false);
    // Not registered yet: the learner's next `ready` sends it (onReady above); poll meanwhile.
    if (!sent) setTimeout(() => void (pendingTrain === pending ? sendTrain() : undefined), 1000).unref();
  };
  const train = (iteration: number, policyVersion: number): Promise<TrainedMessage | null> => {
    if (learnerRef === null) return Promise.resolve(null);
    return new Promise((resolve) => {
      pendingTrain = { iteration, policyVersion, resolve };
      void sendTrain();
    });
  };

  const workerSnapshots = (): Promise<WorkerSnapshot[]> =>
    Promise.all(
      [...workers.values()].map(({ ref }) =>
        query(ref, (replyTo: Ref<WorkerSnapshot>) => ({ kind: 'snapshot', replyTo }), QUERY_TIMEOUT_MS),
      ),
    );
  const awaitInferenceVersion = async (version: number): Promise<void> => {
    const deadline = Date.now() + INFERENCE_SWAP_TIMEOUT_MS;
    while (Date.now() < deadline && shutdown === null) {
      const inference = (await workerSnapshots()).filter((w) => w.role === 'inference');
      if (inference.every((w) => (w.counters.policyVersion ?? 0) >= version)) return;
      await sleep(100);
    }
    if (shutdown === null)
      log.warn(`inference did not report weights v${version} within ${INFERENCE_SWAP_TIMEOUT_MS} ms`);
  };

  const snapshot = async (): Promise<StatusSnapshot> => {
    const run = await query(
      runActor,
      (replyTo: Ref<RunView>) => ({ kind: 'snapshot', replyTo }),
      QUERY_TIMEOUT_MS,
    );
    const workerList = await workerSnapshots();
    const replay = workerList.find((w) => w.role === 'replay');
    const backendOf = workerList.find((w) => w.role === 'inference' && w.labels.backend !== undefined);
    return {
      runId,
      pid: process.pid,
      state: run.state,
      reason: run.reason,
      iteration: run.iteration,
      policyVersion: run.policyVersion,
      horizon: run.horizon,
      startedAt,
      uptimeMs: Date.now() - startedAt,
      rejectedFrames: rejected.total,
      workers: workerList,
      iterations: mode.kind === 'train' ? config.iterations : 0,
      phase,
      phaseProgress: queue.progress,
      replay: {
        seen: replaySeen,
        kept: replay?.counters.kept ?? loopState.totals.kept,
      },
      episodes: episodeTotals,
      backend: backendOf?.labels.backend ?? null,
    };
  };

  // status: snapshots for anyone who can reach the socket; stop and faults need the run token
  void status
    .serve(async ({ message, peer }) => {
      if (peer === null) return;
      const reply = async (body: object) => status.sendTo(peer, body).catch(() => undefined);
      if (message.type === 'status_request') {
        await reply({ type: 'status_reply', snapshot: await snapshot() });
        return;
      }
      if (!tokensMatch(message.token, options.token)) {
        log.warn(`refused a ${message.type}: wrong run token`);
        await reply({
          type: 'control_reply',
          ok: false,
          message: `refused: ${message.type} needs this run's token (the file ${runDir.token}, readable by the run's owner)`,
        });
        return;
      }
      if (message.type === 'stop_request') {
        await reply({ type: 'control_reply', ok: true, message: 'stopping' });
        void requestStop('stop requested', false);
        return;
      }
      const worker = workers.get(message.workerId);
      if (worker === undefined) {
        await reply({ type: 'control_reply', ok: false, message: `no worker '${message.workerId}'` });
        return;
      }
      const said = await query(
        worker.ref,
        (replyTo: Ref<string>) => ({ kind: 'fault', fault: message.fault, replyTo }),
        QUERY_TIMEOUT_MS,
      );
      await reply({ type: 'control_reply', ok: true, message: said });
    })
    .catch((error: Error) => log.error(`status loop failed: ${error.message}`));

  const info: SupervisorInfo = {
    pid: process.pid,
    runId,
    startedAt,
    statusEndpoint: endpoints.status,
    eventsEndpoint: endpoints.events,
    endpoints,
  };
  writeFileAtomic(runDir.supervisorInfo, `${JSON.stringify(info, null, 2)}\n`);
  log.info(
    `run ${runId}: supervisor pid ${process.pid}, ${specs.length} workers, status at ${endpoints.status}`,
  );

  let signalStop: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => {
    signalStop = resolve;
  });
  let resolveDone: (outcome: RunOutcome) => void = () => undefined;
  const done = new Promise<RunOutcome>((resolve) => {
    resolveDone = resolve;
  });

  const stopRoles = async (roles: readonly Role[], deadline: number): Promise<void> => {
    const members = [...workers.values()].filter((w) => roles.includes(w.spec.role));
    for (const { ref } of members)
      dispatch(ref, { kind: 'shutdown', deadlineMs: config.supervisor.shutdown_timeout_ms });
    while (Date.now() < deadline) {
      const states = await Promise.all(
        members.map(({ ref }) =>
          query(ref, (replyTo: Ref<WorkerSnapshot>) => ({ kind: 'snapshot', replyTo }), QUERY_TIMEOUT_MS),
        ),
      );
      if (states.every((s) => s.state === 'stopped')) return;
      await sleep(50);
    }
  };

  const requestStop = (reason: string, failed: boolean): Promise<RunOutcome> => {
    if (shutdown !== null) return shutdown;
    shutdown = (async () => {
      log.info(`stopping: ${reason}`);
      signalStop();
      queue.close();
      clearInterval(staleTimer);
      dispatch(runActor, { kind: 'stopping', reason, failed });
      const deadline = Date.now() + config.supervisor.shutdown_timeout_ms + 2000;
      for (const roles of SHUTDOWN_PHASES) await stopRoles(roles, deadline);
      // Whatever did not stop in time is killed with its process group.
      for (const { ref } of workers.values()) dispatch(ref, { kind: 'kill' });
      await sleep(100);
      dispatch(runActor, { kind: 'stopped' });
      await query(runActor, (replyTo: Ref<RunView>) => ({ kind: 'snapshot', replyTo }), QUERY_TIMEOUT_MS);
      for (const channel of [control, tasks, status, events]) channel.close();
      stopSystem(system);
      rmSync(runDir.supervisorInfo, { force: true });
      const outcome: RunOutcome = {
        state: failed ? 'failed' : 'stopped',
        reason,
        completed,
        evaluation,
      };
      resolveDone(outcome);
      return outcome;
    })();
    return shutdown;
  };

  // The run itself: TTI's loop, or one eval pass; either stops the run when it is done.
  let completed = false;
  let evaluation: RunOutcome['evaluation'] = null;
  const onPhase = (next: Phase, iteration: number, horizon: number): void => {
    phase = next;
    dispatch(runActor, {
      kind: 'progress',
      progress: { iteration, policyVersion: loopState.policyVersion, horizon },
    });
  };
  const loopDone =
    mode.kind === 'train'
      ? runTtiLoop(
          {
            config,
            log,
            runId,
            trainTasks,
            testTasks,
            labels,
            queue,
            train,
            awaitInferenceVersion,
            restarts: async () => (await workerSnapshots()).reduce((n, w) => n + w.restarts, 0),
            onPhase,
            saveState: (state) => {
              loopState = state;
              dispatch(runActor, {
                kind: 'progress',
                progress: {
                  iteration: state.iteration,
                  policyVersion: state.policyVersion,
                  horizon: state.horizon,
                },
              });
              saveState({
                ...runView,
                iteration: state.iteration,
                policyVersion: state.policyVersion,
                horizon: state.horizon,
              });
            },
            appendMetrics: (row: MetricsRow) => appendFileSync(metricsFile, `${JSON.stringify(row)}\n`),
            stopped: stopSignal,
            event: publish,
          },
          loopState,
        ).then((how) => {
          if (how !== 'completed') return;
          completed = true;
          void requestStop(`completed ${loopState.iteration} of ${config.iterations} iterations`, false);
        })
      : runEvalOnly(
          { queue, labels, onPhase, stopped: stopSignal, runId },
          // --limit N: the seeded subset of N tasks (eval_sampling) that training's periodic eval uses.
          evalSubset(
            mode.split === 'train' ? trainTasks : testTasks,
            mode.limit ?? 0,
            config.seed,
            config.eval_sampling,
            (t) => templateIn(labels, t),
          ),
          { ...mode, temperature: finalTemperature(config.temperature) },
        ).then((summary) => {
          if (summary === null) return;
          completed = true;
          const { results: _results, ...rest } = summary;
          evaluation = rest;
          writeFileAtomic(path.join(runDir.root, 'eval.json'), `${JSON.stringify(summary, null, 2)}\n`);
          void requestStop(`evaluated ${summary.episodes} episodes`, false);
        });
  loopDone.catch((error: Error) => {
    log.error(`the run loop failed: ${error.stack ?? error.message}`);
    void requestStop(`the run loop failed: ${error.message}`, true);
  });

  return {
    info,
    snapshot,
    stop: (reason) => requestStop(reason, false),
    done,
    onEvent: (listener) => listeners.push(listener),
  };
}

export type { Endpoints };
