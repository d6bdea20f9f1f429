// One nact actor per worker that joined from another machine (`tti-run worker --join`). tti did not
// start it and does not restart it: its own machine's manager (Kubernetes, Compose, systemd, Slurm)
// does. The actor watches its heartbeat: silent past the timeout, the worker is `lost` and the work
// it held goes back to the queue (onExit); when it registers again, with the same credential, it is
// `ready` and takes work as before. A revoked credential drops it for good.
import { dispatch, type Ref, spawn } from 'nact';
import type { WorkerSnapshot, WorkerState, WorkerStats } from '../../protocol/index.js';
import { sendCommand, type WorkerEnv, type WorkerMsg, type WorkerSpec } from './worker-actor.js';

interface State {
  peer: Buffer | null;
  pid: number | null;
  host: string;
  state: WorkerState;
  /** times it registered; the snapshot's `restarts` counts the comebacks */
  joins: number;
  lastHeartbeatAt: number | null;
  lastError: string | null;
  stats: WorkerStats;
  shutdownDeadline: number | null;
}

const TICK_MS = 200;

export function spawnRemoteWorkerActor(
  parent: Ref<never>,
  spec: WorkerSpec,
  host: string,
  env: WorkerEnv,
): Ref<WorkerMsg> {
  const heartbeatTimeoutMs = env.config.supervisor.heartbeat_timeout_ms;
  const initialState: State = {
    peer: null,
    pid: null,
    host,
    state: 'starting',
    joins: 0,
    lastHeartbeatAt: null,
    lastError: null,
    stats: { rejectedFrames: 0, busy: false, counters: {}, labels: {} },
    shutdownDeadline: null,
  };
  const refuse = (peer: Buffer, reason: string) =>
    void env.sendControl(peer, { type: 'refused', reason }).catch(() => undefined);

  /** The worker is gone (or as good as): what it held goes elsewhere. */
  const lose = (state: State, why: string, next: WorkerState): State => {
    env.log.warn(`${spec.id} (remote, ${state.host}): ${why}`);
    env.onEvent('worker_lost', `${spec.id} on ${state.host}: ${why}`);
    env.onExit?.(spec);
    return { ...state, peer: null, state: next, lastError: why };
  };

  const ref = spawn(
    parent,
    (state: State, msg: WorkerMsg): State => {
      const now = Date.now();
      switch (msg.kind) {
        case 'register': {
          if (state.state === 'stopping' || (state.state === 'stopped' && state.lastError !== null)) {
            refuse(
              msg.peer,
              `${spec.id} is ${state.state === 'stopping' ? 'stopping' : `dropped: ${state.lastError}`}`,
            );
            return state;
          }
          // A comeback before the old connection timed out: the old one's work goes back first.
          const base =
            state.peer !== null && !state.peer.equals(msg.peer)
              ? lose(state, `registered again from pid ${msg.pid} on ${msg.hostname ?? state.host}`, 'lost')
              : state;
          void env
            .sendControl(msg.peer, env.welcome(spec))
            .catch((error: Error) => env.log.warn(`${spec.id}: welcome lost: ${error.message}`));
          const hostNow = msg.hostname ?? base.host;
          env.onReady(spec);
          env.onEvent(
            'worker_ready',
            `${spec.id} joined from ${hostNow} (pid ${msg.pid}${base.joins > 0 ? `, comeback ${base.joins}` : ''})`,
          );
          env.log.info(`${spec.id}: joined from ${hostNow}, pid ${msg.pid}`);
          return {
            ...base,
            peer: msg.peer,
            pid: msg.pid,
            host: hostNow,
            state: 'ready',
            joins: base.joins + 1,
            lastHeartbeatAt: now,
          };
        }

        case 'heartbeat':
          if (state.peer === null || !msg.peer.equals(state.peer)) {
            refuse(msg.peer, `not the registered ${spec.id}`);
            return state;
          }
          void env.sendControl(msg.peer, { type: 'heartbeat_ack' }).catch(() => undefined);
          return { ...state, lastHeartbeatAt: now, stats: msg.stats };

        case 'error':
          return { ...state, lastError: msg.message };

        case 'bye':
          env.log.info(`${spec.id}: said bye (${msg.reason})`);
          if (state.state === 'stopping') return { ...state, peer: null, state: 'stopped' };
          // Its manager stops it (a scale-down, a rollout); another may take its credential later.
          return state.peer === null ? state : lose(state, `left: ${msg.reason}`, 'lost');

        case 'tick':
          if (
            state.state === 'ready' &&
            state.lastHeartbeatAt !== null &&
            now - state.lastHeartbeatAt > heartbeatTimeoutMs
          )
            return lose(
              state,
              `no heartbeat for ${now - state.lastHeartbeatAt} ms; its work is requeued`,
              'lost',
            );
          if (state.state === 'stopping' && state.shutdownDeadline !== null && now > state.shutdownDeadline)
            return { ...state, peer: null, state: 'stopped', shutdownDeadline: null };
          return state;

        case 'revoked':
          if (state.peer !== null) refuse(state.peer, `credential ${spec.id} revoked`);
          return lose(state, 'its credential was revoked; dropped', 'stopped');

        case 'send':
          sendCommand(env, state, msg);
          return state;

        case 'fault':
          if (state.peer === null) {
            dispatch(msg.replyTo, `${spec.id} is not connected`);
            return state;
          }
          void env.sendControl(state.peer, { type: 'command', command: 'fault', fault: msg.fault });
          dispatch(msg.replyTo, `fault '${msg.fault}' sent to ${spec.id} (remote, ${state.host})`);
          return state;

        case 'shutdown':
          if (state.peer === null) return { ...state, state: 'stopped' };
          void env
            .sendControl(state.peer, { type: 'command', command: 'shutdown', deadlineMs: msg.deadlineMs })
            .catch(() => undefined);
          return { ...state, state: 'stopping', shutdownDeadline: now + msg.deadlineMs + 1000 };

        case 'kill':
          // Nothing of it runs here to kill; its connection is dropped with the run's sockets.
          return { ...state, peer: null, state: 'stopped' };

        case 'snapshot': {
          const snapshot: WorkerSnapshot = {
            role: spec.role,
            id: spec.id,
            state: state.state,
            restarts: Math.max(0, state.joins - 1),
            lastHeartbeatMs: state.lastHeartbeatAt === null ? null : now - state.lastHeartbeatAt,
            lastError: state.lastError,
            rejectedFrames: state.stats.rejectedFrames,
            counters: state.stats.counters,
            labels: state.stats.labels,
            host: state.host,
            remote: true,
          };
          dispatch(msg.replyTo, snapshot);
          return state;
        }

        case 'spawn':
        case 'exited':
          return state; // never spawned here
      }
    },
    spec.id,
    { initialState },
  );
  const ticker = setInterval(() => dispatch(ref, { kind: 'tick' }), TICK_MS);
  ticker.unref();
  return ref;
}
