// The supervisor: a nact actor system inside `tti-run train`. This file is its wiring: it binds the
// run's sockets, spawns a WorkerActor per child process (worker-pool.ts) and a RunActor for the
// run's state, hands the sockets to their loops (control-loop.ts, task-loop.ts, status-loop.ts), and
// runs TTI's loop (src/loop) or an eval (run-mode.ts) against the actor system's collector
// (queue-collector.ts) and learner (train-coordinator.ts); on a stop it shuts everything down in
// order. A run that listens (`--listen`) also admits workers from other machines (remote-workers.ts).
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dispatch, query, type Ref, start, stop as stopSystem } from 'nact';
import { type Endpoints, RejectedFrames } from '../../protocol/index.js';
import { deferred } from '../../util/index.js';
import { serveControl } from './control-loop.js';
import { EpisodeQueue } from './episode-queue.js';
import { PauseWatch } from './pause-watch.js';
import { QueueCollector } from './queue-collector.js';
import { RemoteWorkers } from './remote-workers.js';
import { type RunMsg, type RunView, spawnRunActor } from './run-actor.js';
import { RunDirWrites } from './run-dir-writes.js';
import { type RunEnd, type RunMode, runMode } from './run-mode.js';
import { RunStateStore, readLoopState, trimMetrics } from './run-state.js';
import { openSupervisorSockets, RunEvents } from './sockets.js';
import { StatusLoop } from './status-loop.js';
import type { RunOutcome, SupervisorHandle, SupervisorOptions } from './supervisor-handle.js';
import { announceSupervisor } from './supervisor-info.js';
import { TaskLoop } from './task-loop.js';
import { runTasks } from './task-refs.js';
import { TrainCoordinator } from './train-coordinator.js';
import { QUERY_TIMEOUT_MS, WorkerPool, workerSpecs } from './worker-pool.js';

export type { RunMode, RunOutcome, SupervisorHandle, SupervisorOptions };
export { workerSpecs };

export async function startSupervisor(options: SupervisorOptions): Promise<SupervisorHandle> {
  const { config, runDir, log } = options;
  const startedAt = Date.now();
  const runId = `${config.run_name}-${startedAt.toString(36)}`;
  const specs = workerSpecs(config);

  const mode: RunMode = options.mode ?? { kind: 'train' };
  const { trainTasks, testTasks, labels, claimOf } = await runTasks(
    config,
    (split) => mode.kind === 'train' || mode.split === split,
    log,
  );

  const rejected = new RejectedFrames(
    (m) => log.warn(m),
    (m) => log.info(m),
  );
  // After `register`, a message speaks only for its own key's worker (src/run/speaker-check.ts).
  const opened = await openSupervisorSockets(runDir, config, specs, rejected, log);
  const { endpoints, sockets, gate, relay, speakers } = opened;
  const remote = new RemoteWorkers({ config, log, runDir: runDir.root, ...opened, workers: () => workers });
  const events = new RunEvents(sockets.events);
  const publish = events.publish;

  const state = new RunStateStore(runDir, readLoopState(runDir, config, options.resume, log));
  const metricsFile = path.join(runDir.root, 'metrics.jsonl');
  if (mode.kind === 'train') trimMetrics(metricsFile, state.loop.iteration);

  // A full disk holds these writes and pauses collection (run-dir-writes.ts).
  const writes = new RunDirWrites(log);
  const system = start();
  let shutdown: Promise<RunOutcome> | null = null;
  const runActor: Ref<RunMsg> = spawnRunActor(
    system,
    specs.map((s) => s.id),
    state.progress,
    (view) => {
      const changed = view.state !== state.view.state;
      writes.write('state.json', true, () => state.save(view));
      if (changed) publish('run_state', `run ${view.state}${view.reason ? `: ${view.reason}` : ''}`);
    },
  );
  writes.write('state.json', true, () => state.save({ ...state.progress, state: 'starting', reason: null }));

  // Beside collection (rollout.max_policy_lag ≥ 1) an eval runs on half the env workers at most.
  const queue = new EpisodeQueue(
    Math.max(1, Math.floor((config.workers.env + config.remote.env) / 2)),
    claimOf,
  );
  const trainer = new TrainCoordinator(() => workers.first('learner'));
  const workers: WorkerPool = new WorkerPool(system, specs, {
    config,
    runDir: runDir.root,
    controlEndpoint: endpoints.control,
    log,
    sendControl: (peer, message) => sockets.control.sendTo(peer, message),
    welcome: (spec) => ({
      type: 'registered',
      runId,
      workerId: spec.id,
      endpoints: { ...endpoints, act: remote.act() },
      config,
      heartbeatIntervalMs: config.supervisor.heartbeat_interval_ms,
      supervisorTimeoutMs: Math.max(5000, config.supervisor.heartbeat_timeout_ms * 2),
      policyVersion: state.loop.policyVersion,
    }),
    onGaveUp: (_spec, message) => void requestStop(message, true),
    onReady: (s) => {
      dispatch(runActor, { kind: 'worker_ready', workerId: s.id });
      if (s.role === 'learner') trainer.learnerReady();
      remote.workerChanged(s.id, s.role, true);
    },
    onEvent: publish,
    onExit: (s) => {
      if (s.role === 'env') taskLoop.workerDied(s.id);
      remote.workerChanged(s.id, s.role, false);
    },
  });

  void serveControl(
    sockets.control,
    workers.entries,
    (message) => trainer.trained(message),
    log,
    remote.admit,
    (message) => speakers.speaks(message, 'control'),
  );
  const pause = new PauseWatch(
    () => workers.snapshots(),
    () => writes.why,
    log,
    publish,
  );
  const taskLoop = new TaskLoop(sockets.tasks, queue, {
    totals: state.loop.totals,
    episodeTimeoutMs: config.env.episode_timeout_ms,
    log,
    publish,
    speaks: (message) => speakers.speaks(message, 'tasks'),
    paused: () => pause.why,
  });
  const remoteStatus = remote.status();
  const statusLoop = new StatusLoop(
    sockets.status,
    { value: options.token, file: runDir.token },
    {
      runId,
      startedAt,
      iterations: mode.kind === 'train' ? config.iterations : 0,
      run: () =>
        query(runActor, (replyTo: Ref<RunView>) => ({ kind: 'snapshot', replyTo }), QUERY_TIMEOUT_MS),
      workers: () => workers.snapshots(),
      rejected,
      queue,
      tasks: taskLoop,
      keptBefore: () => state.loop.totals.kept,
      paused: () => pause.why,
      ...(remoteStatus !== undefined ? { remote: remoteStatus } : {}),
    },
    { stop: () => void requestStop('stop requested', false), fault: (id, fault) => workers.fault(id, fault) },
    log,
  );

  const info = announceSupervisor(
    runDir,
    { runId, startedAt, endpoints, curve: remote.keys !== null },
    specs,
    log,
  );

  const { promise: stopSignal, resolve: signalStop } = deferred<void>();
  const { promise: done, resolve: resolveDone } = deferred<RunOutcome>();
  let end: RunEnd | null = null;
  const requestStop = (reason: string, failed: boolean): Promise<RunOutcome> => {
    if (shutdown !== null) return shutdown;
    shutdown = (async () => {
      log.info(`stopping: ${reason}`);
      signalStop();
      taskLoop.stop();
      dispatch(runActor, { kind: 'stopping', reason, failed });
      const deadline = Date.now() + config.supervisor.shutdown_timeout_ms + 2000;
      await workers.stopInOrder(config.supervisor.shutdown_timeout_ms, deadline);
      await sleep(100);
      dispatch(runActor, { kind: 'stopped' });
      await query(runActor, (replyTo: Ref<RunView>) => ({ kind: 'snapshot', replyTo }), QUERY_TIMEOUT_MS);
      for (const channel of Object.values(sockets)) channel.close();
      remote.close();
      pause.close();
      writes.close();
      relay?.close();
      gate?.close();
      stopSystem(system);
      rmSync(runDir.supervisorInfo, { force: true });
      const outcome: RunOutcome = {
        state: failed ? 'failed' : 'stopped',
        reason,
        completed: end !== null,
        evaluation: end?.evaluation ?? null,
      };
      resolveDone(outcome);
      return outcome;
    })();
    return shutdown;
  };

  runMode(
    mode,
    {
      config,
      log,
      runId,
      trainTasks,
      testTasks,
      labels,
      collector: new QueueCollector(queue, (version) =>
        workers.awaitInferenceVersion(version, () => shutdown === null, log),
      ),
      learner: trainer,
      restarts: () => workers.restarts(),
      onPhase: (next, iteration, horizon) => {
        statusLoop.phase = next;
        const progress = { iteration, policyVersion: state.loop.policyVersion, horizon };
        dispatch(runActor, { kind: 'progress', progress });
      },
      onLag: (lag) => {
        statusLoop.lag = lag;
      },
      saveState: (loop) => dispatch(runActor, { kind: 'progress', progress: state.advance(loop) }),
      appendMetrics: (row) =>
        writes.write('metrics.jsonl', false, () => appendFileSync(metricsFile, `${JSON.stringify(row)}\n`)),
      stopped: stopSignal,
      event: publish,
    },
    state,
    path.join(runDir.root, 'eval.json'),
  ).then(
    (ran) => {
      if (ran === null) return;
      end = ran;
      void requestStop(ran.reason, false);
    },
    (error: Error) => {
      log.error(`the run loop failed: ${error.stack ?? error.message}`);
      void requestStop(`the run loop failed: ${error.message}`, true);
    },
  );

  return {
    info,
    snapshot: () => statusLoop.snapshot(),
    stop: (reason) => requestStop(reason, false),
    done,
    onEvent: (listener) => events.listen(listener),
  };
}

export type { Endpoints };
