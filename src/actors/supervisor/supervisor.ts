// The supervisor: a nact actor system inside `tti-run train`. It binds the run's sockets, spawns a
// WorkerActor per child process and a RunActor for the run's state, answers status and control
// requests, and shuts everything down in order on a stop.
import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dispatch, query, type Ref, start, stop as stopSystem } from 'nact';
import { z } from 'zod';
import type { Config } from '../../config/schema.js';
import { horizonAt } from '../../curriculum/horizon-schedule.js';
import { type TaskRef, TaskSampler } from '../../curriculum/task-sampler.js';
import { formatTaskIssue, validateTaskFile } from '../../envs/index.js';
import type { Logger } from '../../log/logger.js';
import { projectRoot } from '../../paths.js';
import { type RunDir, type SupervisorInfo, writeFileAtomic } from '../../run/run-dir.js';
import {
  type Endpoints,
  Inbound,
  type Role,
  type RunEvent,
  type StatusSnapshot,
  type WorkerSnapshot,
} from '../protocol.js';
import { Channel, RejectedFrames, type SocketTuning } from '../transport.js';
import { planEndpoints } from './endpoints.js';
import { type RunMsg, type RunProgress, type RunView, spawnRunActor } from './run-actor.js';
import { spawnWorkerActor, type WorkerMsg, type WorkerSpec } from './worker-actor.js';

export interface SupervisorOptions {
  config: Config;
  runDir: RunDir;
  token: string;
  resume: boolean;
  log: Logger;
}

export interface RunOutcome {
  state: 'stopped' | 'failed';
  reason: string;
}

export interface SupervisorHandle {
  info: SupervisorInfo;
  snapshot(): Promise<StatusSnapshot>;
  stop(reason: string): Promise<RunOutcome>;
  done: Promise<RunOutcome>;
  /** called with each run event, for the foreground console view */
  onEvent(listener: (event: RunEvent) => void): void;
}

const RunStateFile = z.object({ iteration: z.number(), policyVersion: z.number(), horizon: z.number() });

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

const DEFAULT_TRAIN_TASKS = path.join(projectRoot, 'tasks', 'miniarena', 'train.json');

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

function tokensMatch(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readProgress(runDir: RunDir, config: Config, resume: boolean, log: Logger): RunProgress {
  const fresh = {
    iteration: 0,
    policyVersion: 0,
    horizon: horizonAt({ kind: 'list', horizons: config.horizon_schedule }, 1),
  };
  if (!resume) return fresh;
  if (!existsSync(runDir.state)) {
    log.info(`--resume: nothing to resume in ${runDir.root}; starting a new run`);
    return fresh;
  }
  const parsed = RunStateFile.safeParse(JSON.parse(readFileSync(runDir.state, 'utf8')));
  if (!parsed.success) throw new Error(`--resume: ${runDir.state} is malformed: ${parsed.error.message}`);
  log.info(`resuming at iteration ${parsed.data.iteration}, policy version ${parsed.data.policyVersion}`);
  return parsed.data;
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

  const trainTasks = new TaskSampler(loadTaskRefs(config.tasks.train ?? DEFAULT_TRAIN_TASKS), 'uniform');
  log.info(`training tasks: ${trainTasks.size} from ${config.tasks.train ?? DEFAULT_TRAIN_TASKS}`);

  const rejected = new RejectedFrames((message) => log.warn(message));
  const tuning: SocketTuning = {
    lingerMs: config.transport.linger_ms,
    heartbeatIntervalMs: 1000,
    heartbeatTimeoutMs: 5000,
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

  let progress = readProgress(runDir, config, options.resume, log);
  const saveState = (view: RunView): void => {
    progress = { iteration: view.iteration, policyVersion: view.policyVersion, horizon: view.horizon };
    writeFileAtomic(
      runDir.state,
      `${JSON.stringify({ ...progress, state: view.state, reason: view.reason }, null, 2)}\n`,
    );
  };

  const system = start();
  let shutdown: Promise<RunOutcome> | null = null;
  const runActor: Ref<RunMsg> = spawnRunActor(
    system,
    specs.map((s) => s.id),
    progress,
    (view) => {
      saveState(view);
      publish('run_state', `run ${view.state}${view.reason ? `: ${view.reason}` : ''}`);
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
      onReady: (s) => dispatch(runActor, { kind: 'worker_ready', workerId: s.id }),
      onEvent: publish,
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
      }
    })
    .catch((error: Error) => log.error(`control loop failed: ${error.message}`));

  // tasks: env workers pull; none are handed out while the run is stopping
  let episodes = 0;
  void tasks
    .serve(async ({ message, peer }) => {
      if (peer === null) return;
      if (shutdown !== null) {
        await tasks
          .sendTo(peer, { type: 'no_task', requestId: message.requestId, retryAfterMs: 1000 })
          .catch(() => undefined);
        return;
      }
      const task = trainTasks.next();
      episodes += 1;
      await tasks
        .sendTo(peer, {
          type: 'task_assignment',
          requestId: message.requestId,
          episodeId: `${runId}-e${episodes}`,
          taskFile: task.file,
          taskId: task.id,
          horizon: progress.horizon,
          minTry: config.min_try,
          split: 'train',
        })
        .catch((error: Error) => log.warn(`task for ${message.workerId} lost: ${error.message}`));
    })
    .catch((error: Error) => log.error(`tasks loop failed: ${error.message}`));

  const snapshot = async (): Promise<StatusSnapshot> => {
    const run = await query(
      runActor,
      (replyTo: Ref<RunView>) => ({ kind: 'snapshot', replyTo }),
      QUERY_TIMEOUT_MS,
    );
    const workerSnapshots = await Promise.all(
      [...workers.values()].map(({ ref }) =>
        query(ref, (replyTo: Ref<WorkerSnapshot>) => ({ kind: 'snapshot', replyTo }), QUERY_TIMEOUT_MS),
      ),
    );
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
      workers: workerSnapshots,
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

  let resolveDone: (outcome: RunOutcome) => void = () => undefined;
  const done = new Promise<RunOutcome>((resolve) => {
    resolveDone = resolve;
  });

  const waitForPhase = async (phase: readonly Role[], deadline: number): Promise<void> => {
    const members = [...workers.values()].filter((w) => phase.includes(w.spec.role));
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
      dispatch(runActor, { kind: 'stopping', reason, failed });
      const deadline = Date.now() + config.supervisor.shutdown_timeout_ms + 2000;
      for (const phase of SHUTDOWN_PHASES) await waitForPhase(phase, deadline);
      // Whatever did not stop in time is killed with its process group.
      for (const { ref } of workers.values()) dispatch(ref, { kind: 'kill' });
      await sleep(100);
      dispatch(runActor, { kind: 'stopped' });
      await query(runActor, (replyTo: Ref<RunView>) => ({ kind: 'snapshot', replyTo }), QUERY_TIMEOUT_MS);
      for (const channel of [control, tasks, status, events]) channel.close();
      stopSystem(system);
      rmSync(runDir.supervisorInfo, { force: true });
      const outcome: RunOutcome = { state: failed ? 'failed' : 'stopped', reason };
      resolveDone(outcome);
      return outcome;
    })();
    return shutdown;
  };

  return {
    info,
    snapshot,
    stop: (reason) => requestStop(reason, false),
    done,
    onEvent: (listener) => listeners.push(listener),
  };
}

export type { Endpoints };
