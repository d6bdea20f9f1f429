// The supervisor: a nact actor system inside `tti-run train`. This file is its wiring: it binds the
// run's sockets, spawns a WorkerActor per child process (worker-pool.ts) and a RunActor for the
// run's state, hands the sockets to their loops (control-loop.ts, task-loop.ts, status-loop.ts), the
// learner to the train coordinator, and runs TTI's loop or an eval (run-mode.ts); on a stop it
// shuts everything down in order. A run that listens (`--listen`) also admits workers that join from
// other machines (admission.ts, remote-worker-actor.ts), holds every later message to its key's
// worker (src/run/speaker-check.ts), tells env workers when the act relay for remote inference has
// someone behind it, drops a worker whose credential is revoked, and has the learner publish its
// weights again for an inference worker that is behind.
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dispatch, query, type Ref, start, stop as stopSystem } from 'nact';
import type { Config } from '../../config/index.js';
import type { Logger } from '../../log/index.js';
import { type Endpoints, RejectedFrames, type RunEvent, type StatusSnapshot } from '../../protocol/index.js';
import { type RunDir, readCurveKeys, type SupervisorInfo, writeFileAtomic } from '../../run/index.js';
import { admit } from './admission.js';
import { serveControl } from './control-loop.js';
import { EpisodeQueue } from './episode-queue.js';
import { type RunMsg, type RunView, spawnRunActor } from './run-actor.js';
import { type RunEnd, type RunMode, runMode } from './run-mode.js';
import { RunStateStore, readLoopState, trimMetrics } from './run-state.js';
import { openSupervisorSockets, RunEvents } from './sockets.js';
import { StatusLoop } from './status-loop.js';
import { TaskLoop } from './task-loop.js';
import { runTasks } from './task-refs.js';
import { TrainCoordinator } from './train-coordinator.js';
import { QUERY_TIMEOUT_MS, WorkerPool, workerSpecs } from './worker-pool.js';

export type { RunMode };
export { workerSpecs };

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
  evaluation: RunEnd['evaluation'];
}

export interface SupervisorHandle {
  info: SupervisorInfo;
  snapshot(): Promise<StatusSnapshot>;
  stop(reason: string): Promise<RunOutcome>;
  done: Promise<RunOutcome>;
  /** called with each run event, for the foreground console view */
  onEvent(listener: (event: RunEvent) => void): void;
}

export async function startSupervisor(options: SupervisorOptions): Promise<SupervisorHandle> {
  const { config, runDir, log } = options;
  const startedAt = Date.now();
  const runId = `${config.run_name}-${startedAt.toString(36)}`;
  const specs = workerSpecs(config);

  const mode: RunMode = options.mode ?? { kind: 'train' };
  const { trainTasks, testTasks, labels } = await runTasks(
    config,
    (split) => mode.kind === 'train' || mode.split === split,
    log,
  );

  const rejected = new RejectedFrames(
    (message) => log.warn(message),
    (message) => log.info(message),
  );
  // After `register`, a message speaks only for its own key's worker (src/run/speaker-check.ts).
  const { endpoints, sockets, gate, relay, speakers } = await openSupervisorSockets(
    runDir,
    config,
    specs,
    rejected,
    log,
  );
  const runKeys = gate !== null ? readCurveKeys(runDir.root) : null;
  const events = new RunEvents(sockets.events);
  const publish = events.publish;

  const state = new RunStateStore(runDir, readLoopState(runDir, config, options.resume, log));
  const metricsFile = path.join(runDir.root, 'metrics.jsonl');
  if (mode.kind === 'train') trimMetrics(metricsFile, state.loop.iteration);

  const system = start();
  let shutdown: Promise<RunOutcome> | null = null;
  const runActor: Ref<RunMsg> = spawnRunActor(
    system,
    specs.map((s) => s.id),
    state.progress,
    (view) => {
      const changed = view.state !== state.view.state;
      state.save(view);
      if (changed) publish('run_state', `run ${view.state}${view.reason ? `: ${view.reason}` : ''}`);
    },
  );
  state.save({ ...state.progress, state: 'starting', reason: null });

  // Env workers use the act relay only while a remote inference worker is behind it.
  const remoteInference = new Set<string>();
  const actNow = (): Record<string, string> =>
    endpoints.relay && remoteInference.size > 0
      ? { ...endpoints.act, relay: endpoints.relay.front }
      : endpoints.act;
  const isRemote = (id: string) => workers.entries.get(id)?.remote === true;
  const remoteInferenceChanged = (id: string, ready: boolean): void => {
    const before = remoteInference.size;
    if (ready) remoteInference.add(id);
    else remoteInference.delete(id);
    if ((before === 0) === (remoteInference.size === 0)) return;
    const message = { type: 'command', command: 'act_endpoints', act: actNow() };
    for (const w of workers.entries.values())
      if (w.spec.role === 'env') void workers.send(w.spec.id, message);
  };

  const queue = new EpisodeQueue();
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
      endpoints: { ...endpoints, act: actNow() },
      config,
      heartbeatIntervalMs: config.supervisor.heartbeat_interval_ms,
      supervisorTimeoutMs: Math.max(5000, config.supervisor.heartbeat_timeout_ms * 2),
      policyVersion: state.loop.policyVersion,
    }),
    onGaveUp: (_spec, message) => void requestStop(message, true),
    onReady: (s) => {
      dispatch(runActor, { kind: 'worker_ready', workerId: s.id });
      if (s.role === 'learner') trainer.learnerReady();
      if (s.role === 'inference' && isRemote(s.id)) remoteInferenceChanged(s.id, true);
    },
    onEvent: publish,
    onExit: (s) => {
      if (s.role === 'env') taskLoop.workerDied(s.id);
      if (s.role === 'inference' && isRemote(s.id)) remoteInferenceChanged(s.id, false);
    },
  });

  let refusedRegisters = 0;
  void serveControl(
    sockets.control,
    workers.entries,
    (message) => trainer.trained(message),
    log,
    (message) => {
      const verdict = admit(message, {
        config,
        keys: runKeys,
        allowList: gate?.list ?? { keys: [] },
        joined: (role) => workers.joined(role),
      });
      if (verdict.kind === 'refused') {
        refusedRegisters += 1;
        return { ok: false, reason: verdict.reason };
      }
      if (verdict.kind === 'local') return { ok: true, ref: null };
      return { ok: true, ref: workers.remote({ role: verdict.role, id: verdict.id }, message.hostname) };
    },
    (message) => speakers.speaks(message, 'control'),
  );
  // `tti-run credentials revoke`: the worker is told to go and its work goes back to the queue.
  gate?.onRevoked((entries) => {
    for (const entry of entries) {
      log.warn(`credential ${entry.id} revoked; dropping that worker`);
      const worker = workers.entries.get(entry.id);
      if (worker !== undefined) dispatch(worker.ref, { kind: 'revoked' });
    }
  });
  // An inference worker behind the learner (one that joined after the last publication, or missed
  // it while its link was down) gets the weights again: PUB/SUB keeps nothing for late subscribers.
  let lastRepublish = 0;
  const weightsSync =
    config.remote.inference > 0
      ? setInterval(() => {
          void workers.snapshots().then(
            (all) => {
              const learner = all.find((w) => w.role === 'learner' && w.state === 'ready');
              const latest = learner?.counters.policyVersion ?? 0;
              const behind = all.filter(
                (w) =>
                  w.role === 'inference' && w.state === 'ready' && (w.counters.policyVersion ?? 0) < latest,
              );
              if (learner === undefined || behind.length === 0 || Date.now() - lastRepublish < 3000) return;
              lastRepublish = Date.now();
              log.info(
                `${behind.map((w) => w.id).join(', ')} behind v${latest}: the learner publishes again`,
              );
              void workers.send(learner.id, { type: 'command', command: 'publish_weights' });
            },
            () => undefined,
          );
        }, 1000)
      : null;
  weightsSync?.unref();
  const taskLoop = new TaskLoop(sockets.tasks, queue, {
    totals: state.loop.totals,
    episodeTimeoutMs: config.env.episode_timeout_ms,
    log,
    publish,
    speaks: (message) => speakers.speaks(message, 'tasks'),
  });
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
      ...(config.transport.listen !== null
        ? {
            remote: (snapshots) => ({
              listen: config.transport.listen ?? '',
              expected: { env: config.remote.env, inference: config.remote.inference },
              refusedConnections: (gate?.refused ?? 0) + refusedRegisters,
              // the supervisor's drops, and replay's and inference's from their heartbeats
              wrongKeyMessages: snapshots.reduce(
                (n, w) => n + (w.counters.wrongKeyMessages ?? 0),
                speakers.refused,
              ),
            }),
          }
        : {}),
    },
    { stop: () => void requestStop('stop requested', false), fault: (id, fault) => workers.fault(id, fault) },
    log,
  );

  const info: SupervisorInfo = {
    pid: process.pid,
    runId,
    startedAt,
    statusEndpoint: endpoints.status,
    eventsEndpoint: endpoints.events,
    endpoints,
    curve: runKeys !== null,
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
      if (weightsSync !== null) clearInterval(weightsSync);
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
      queue,
      train: (iteration, policyVersion) => trainer.train(iteration, policyVersion),
      awaitInferenceVersion: (version) =>
        workers.awaitInferenceVersion(version, () => shutdown === null, log),
      restarts: () => workers.restarts(),
      onPhase: (next, iteration, horizon) => {
        statusLoop.phase = next;
        const progress = { iteration, policyVersion: state.loop.policyVersion, horizon };
        dispatch(runActor, { kind: 'progress', progress });
      },
      saveState: (loop) => dispatch(runActor, { kind: 'progress', progress: state.advance(loop) }),
      appendMetrics: (row) => appendFileSync(metricsFile, `${JSON.stringify(row)}\n`),
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
