// One nact actor per child process: spawn it in its own process group, watch its registration and
// heartbeats, restart it with exponential backoff, and give up (telling the run) when it restarts
// more often than the restart intensity allows.
import { type ChildProcess, spawn as spawnProcess } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import { dispatch, type Ref, spawn } from 'nact';
import type { Config } from '../../config/index.js';
import type { Logger } from '../../log/index.js';
import {
  EXIT_REFUSED,
  type Fault,
  type Role,
  SPAWN_NONCE_ENV,
  type WorkerSnapshot,
  type WorkerState,
  type WorkerStats,
} from '../../protocol/index.js';
import { reapBrowsers } from '../../run/index.js';
import { cliEntry } from '../../util/index.js';
import { backoffMs, intensityExceeded, type RestartPolicy, restartsInWindow } from './restart-policy.js';

export interface WorkerSpec {
  role: Role;
  id: string;
}

export type WorkerMsg =
  | { kind: 'spawn' }
  | { kind: 'exited'; generation: number; code: number | null; signal: string | null }
  | { kind: 'register'; pid: number; peer: Buffer; hostname?: string; spawn?: string | undefined }
  | { kind: 'heartbeat'; stats: WorkerStats; peer: Buffer }
  | { kind: 'error'; message: string }
  | { kind: 'bye'; reason: string }
  | { kind: 'tick' }
  | { kind: 'fault'; fault: Fault; replyTo: Ref<string> }
  | { kind: 'shutdown'; deadlineMs: number }
  | { kind: 'kill' }
  | { kind: 'snapshot'; replyTo: Ref<WorkerSnapshot> }
  /** a command for the child (e.g. the learner's `train`); answers whether it went out */
  | { kind: 'send'; message: object; replyTo: Ref<boolean> }
  /** its credential was revoked (remote workers; a spawned one has none) */
  | { kind: 'revoked' };

/** What a worker actor needs from the supervisor around it. */
export interface WorkerEnv {
  config: Config;
  runDir: string;
  controlEndpoint: string;
  log: Logger;
  /** sends a control message to a registered child */
  sendControl(peer: Buffer, message: object): Promise<void>;
  /** the `registered` reply for this worker */
  welcome(spec: WorkerSpec): object;
  /** tells the run that a worker passed its restart intensity */
  onGaveUp(spec: WorkerSpec, lastError: string): void;
  onReady(spec: WorkerSpec): void;
  onEvent(kind: string, message: string): void;
  /** the child's process is gone (crash, kill, hang killed); the work it held must go elsewhere */
  onExit?(spec: WorkerSpec): void;
}

/** A command for a ready worker (spawned or remote); answers whether it went out. */
export function sendCommand(
  env: Pick<WorkerEnv, 'sendControl'>,
  worker: { peer: Buffer | null; state: WorkerState },
  msg: Extract<WorkerMsg, { kind: 'send' }>,
): void {
  if (worker.peer === null || worker.state !== 'ready') {
    dispatch(msg.replyTo, false);
    return;
  }
  env.sendControl(worker.peer, msg.message).then(
    () => dispatch(msg.replyTo, true),
    () => dispatch(msg.replyTo, false),
  );
}

interface State {
  child: ChildProcess | null;
  generation: number;
  pid: number | null;
  /** given to this spawn's process in its environment; its `register` must carry it (null: none yet) */
  nonce: string | null;
  peer: Buffer | null;
  state: WorkerState;
  restarts: number;
  restartTimes: number[];
  spawnedAt: number;
  lastHeartbeatAt: number | null;
  lastError: string | null;
  stderrTail: string[];
  stats: WorkerStats;
  shutdownDeadline: number | null;
}

const TICK_MS = 200;
const STDERR_TAIL_LINES = 20;

/** Chromium an env worker recorded and left alive (a wedged browser outlives its pipe) is killed. */
function reapLeftBrowsers(spec: WorkerSpec, env: WorkerEnv): void {
  if (spec.role !== 'env') return;
  const killed = reapBrowsers(env.runDir, spec.id);
  if (killed.length > 0)
    env.log.warn(`${spec.id}: killed ${killed.length} Chromium process(es) it left: ${killed.join(', ')}`);
}

function holdsNonce(expected: string | null, given: string | undefined): boolean {
  if (expected === null || given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const hostDown = (stats: WorkerStats): boolean => (stats.counters.hostDown ?? 0) > 0;

function killGroup(pid: number | null): void {
  if (pid === null) return;
  try {
    // The child leads its own process group; everything it started (Chromium) goes with it.
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function spawnWorkerActor(parent: Ref<never>, spec: WorkerSpec, env: WorkerEnv): Ref<WorkerMsg> {
  const policy: RestartPolicy = {
    maxRestarts: env.config.supervisor.max_restarts,
    windowMs: env.config.supervisor.restart_window_s * 1000,
    backoffInitialMs: env.config.supervisor.backoff_initial_ms,
    backoffMaxMs: env.config.supervisor.backoff_max_ms,
  };
  const { heartbeat_timeout_ms: heartbeatTimeoutMs, register_timeout_ms: registerTimeoutMs } =
    env.config.supervisor;

  const startChild = (state: State, self: Ref<WorkerMsg>): State => {
    const generation = state.generation + 1;
    const args = [
      ...process.execArgv,
      cliEntry,
      'worker',
      '--role',
      spec.role,
      '--id',
      spec.id,
      '--control',
      env.controlEndpoint,
      '--run-dir',
      env.runDir,
      '--parent-pid',
      String(process.pid),
      '--log-level',
      env.config.log_level,
      // A run that listens for remote workers is CURVE even on loopback.
      ...(env.config.transport.listen !== null ? ['--curve'] : []),
    ];
    // What admits the child's `register`: a secret handed to the child alone, new for every spawn
    // (a pid can be named by anyone who reads the process table; the environment only by its user).
    const nonce = randomBytes(32).toString('hex');
    const child = spawnProcess(process.execPath, args, {
      env: { ...process.env, [SPAWN_NONCE_ENV]: nonce },
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const stderrTail: string[] = [];
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) stderrTail.push(line.trim());
      stderrTail.splice(0, Math.max(0, stderrTail.length - STDERR_TAIL_LINES));
    });
    child.on('exit', (code, signal) => dispatch(self, { kind: 'exited', generation, code, signal }));
    child.on('error', (error) => env.log.error(`${spec.id}: spawn failed: ${error.message}`));
    env.log.info(`${spec.id}: spawned pid ${child.pid ?? '?'}`);
    return {
      ...state,
      child,
      generation,
      pid: child.pid ?? null,
      nonce,
      peer: null,
      state: state.restarts > 0 ? 'restarting' : 'starting',
      spawnedAt: Date.now(),
      lastHeartbeatAt: null,
      stderrTail,
    };
  };

  const initialState: State = {
    child: null,
    generation: 0,
    pid: null,
    nonce: null,
    peer: null,
    state: 'starting',
    restarts: 0,
    restartTimes: [],
    spawnedAt: 0,
    lastHeartbeatAt: null,
    lastError: null,
    stderrTail: [],
    stats: { rejectedFrames: 0, busy: false, counters: {}, labels: {} },
    shutdownDeadline: null,
  };

  const ref = spawn(
    parent,
    (state: State, msg: WorkerMsg, ctx): State => {
      const now = Date.now();
      switch (msg.kind) {
        case 'spawn':
          if (state.state === 'stopping' || state.state === 'stopped') return state;
          // What a predecessor left (e.g. under a supervisor that was killed) goes before it starts.
          reapLeftBrowsers(spec, env);
          return startChild(state, ctx.self);

        case 'register':
          // A process we did not start (a stale one from before a restart, one posing as this
          // worker) has not this spawn's nonce: it is told to go away, whatever pid it names.
          if (!holdsNonce(state.nonce, msg.spawn)) {
            env.log.warn(
              `${spec.id}: register without this spawn's nonce (${msg.spawn === undefined ? 'none' : 'a wrong one'}, from pid ${msg.pid}); refused`,
            );
            void env
              .sendControl(msg.peer, {
                type: 'refused',
                reason: `${spec.id}: not the process this supervisor spawned (no proof of its spawn)`,
              })
              .catch(() => undefined);
            return state;
          }
          void env
            .sendControl(msg.peer, env.welcome(spec))
            .catch((error: Error) => env.log.warn(`${spec.id}: welcome lost: ${error.message}`));
          if (state.state === 'stopping') {
            // It registered after the run began to stop (its start was slow): it is told to stop
            // too, and its exit is a stop, not a crash to restart.
            void env
              .sendControl(msg.peer, {
                type: 'command',
                command: 'shutdown',
                deadlineMs: Math.max(1000, (state.shutdownDeadline ?? now + 5000) - now - 1000),
              })
              .catch(() => undefined);
            return { ...state, peer: msg.peer, lastHeartbeatAt: now };
          }
          env.onReady(spec);
          env.onEvent('worker_ready', `${spec.id} registered (restarts ${state.restarts})`);
          return { ...state, peer: msg.peer, state: 'ready', lastHeartbeatAt: now };

        case 'heartbeat':
          if (state.peer === null || !msg.peer.equals(state.peer)) {
            env.log.warn(`${spec.id}: heartbeat from an unregistered peer (state ${state.state}); refused`);
            void env
              .sendControl(msg.peer, { type: 'refused', reason: `not the registered ${spec.id}` })
              .catch(() => undefined);
            return state;
          }
          void env.sendControl(msg.peer, { type: 'heartbeat_ack' }).catch(() => undefined);
          return {
            ...state,
            lastHeartbeatAt: now,
            stats: msg.stats,
            // An env worker whose web host does not answer is alive but unhealthy until it does.
            state:
              state.state === 'ready' || state.state === 'unhealthy'
                ? hostDown(msg.stats)
                  ? 'unhealthy'
                  : 'ready'
                : state.state,
          };

        case 'error':
          return { ...state, lastError: msg.message };

        case 'bye':
          env.log.info(`${spec.id}: said bye (${msg.reason})`);
          return state;

        case 'tick': {
          if (
            (state.state === 'ready' || (state.state === 'unhealthy' && hostDown(state.stats))) &&
            state.lastHeartbeatAt !== null &&
            // a worker that declared a long computation (the learner training) gets its grace
            now - state.lastHeartbeatAt > Math.max(heartbeatTimeoutMs, state.stats.graceMs ?? 0)
          ) {
            const why = `no heartbeat for ${now - state.lastHeartbeatAt} ms`;
            env.log.warn(`${spec.id}: ${why}; killing pid ${state.pid}`);
            killGroup(state.pid);
            const stats = { ...state.stats, counters: { ...state.stats.counters, hostDown: 0 } };
            return { ...state, state: 'unhealthy', lastError: why, stats };
          }
          if ((state.state === 'starting' || state.state === 'restarting') && state.pid !== null) {
            if (now - state.spawnedAt > registerTimeoutMs) {
              const why = `did not register within ${registerTimeoutMs} ms`;
              env.log.warn(`${spec.id}: ${why}; killing pid ${state.pid}`);
              killGroup(state.pid);
              return { ...state, lastError: why, spawnedAt: now };
            }
          }
          if (state.state === 'stopping' && state.shutdownDeadline !== null && now > state.shutdownDeadline) {
            env.log.warn(`${spec.id}: did not stop by its deadline; killing pid ${state.pid}`);
            killGroup(state.pid);
            return { ...state, shutdownDeadline: null };
          }
          return state;
        }

        case 'exited': {
          if (msg.generation !== state.generation) return state;
          const how = msg.signal !== null ? `killed by ${msg.signal}` : `exited with code ${msg.code}`;
          // Reap anything the child left in its group, and the browsers it started outside it.
          killGroup(state.pid);
          reapLeftBrowsers(spec, env);
          env.onExit?.(spec);
          if (state.state === 'stopping' || state.state === 'stopped') {
            env.log.info(`${spec.id}: ${how}`);
            return { ...state, child: null, pid: null, peer: null, state: 'stopped' };
          }
          const lastError = state.stderrTail.at(-1) ?? state.lastError ?? how;
          const restartTimes = [...restartsInWindow(state.restartTimes, now, policy), now];
          const restarts = state.restarts + 1;
          const refused = msg.code === EXIT_REFUSED;
          if (refused || intensityExceeded(restartTimes, now, policy)) {
            const message = refused
              ? `${spec.role} worker ${spec.id} refused to start: ${lastError}`
              : `${spec.role} worker ${spec.id} ${how} and restarted more than ${policy.maxRestarts} times in ${policy.windowMs / 1000}s; last error: ${lastError}`;
            env.log.error(message);
            env.onGaveUp(spec, message);
            return {
              ...state,
              child: null,
              pid: null,
              peer: null,
              state: 'stopped',
              lastError,
              restartTimes,
            };
          }
          const delay = backoffMs(restartTimes.length, policy);
          env.log.warn(`${spec.id}: ${how} (${lastError}); restart ${restarts} in ${delay} ms`);
          env.onEvent('worker_restart', `${spec.id} ${how}; restarting in ${delay} ms`);
          setTimeout(() => dispatch(ctx.self, { kind: 'spawn' }), delay);
          return {
            ...state,
            child: null,
            pid: null,
            peer: null,
            state: 'restarting',
            restarts,
            restartTimes,
            lastError,
          };
        }

        case 'send':
          sendCommand(env, state, msg);
          return state;

        case 'fault':
          if (state.peer === null) {
            dispatch(msg.replyTo, `${spec.id} is not registered`);
            return state;
          }
          void env.sendControl(state.peer, { type: 'command', command: 'fault', fault: msg.fault });
          dispatch(msg.replyTo, `fault '${msg.fault}' sent to ${spec.id} (pid ${state.pid})`);
          return state;

        case 'shutdown':
          if (state.pid === null) return { ...state, state: 'stopped' };
          if (state.peer !== null) {
            void env
              .sendControl(state.peer, { type: 'command', command: 'shutdown', deadlineMs: msg.deadlineMs })
              .catch(() => undefined);
          } else {
            // Not registered yet: it cannot hear a command, so it gets SIGTERM.
            try {
              process.kill(state.pid, 'SIGTERM');
            } catch {
              // gone
            }
          }
          return { ...state, state: 'stopping', shutdownDeadline: now + msg.deadlineMs + 1000 };

        case 'kill':
          killGroup(state.pid);
          return { ...state, state: 'stopping' };

        case 'revoked':
          return state;

        case 'snapshot':
          dispatch(msg.replyTo, {
            role: spec.role,
            id: spec.id,
            state: state.state,
            restarts: state.restarts,
            lastHeartbeatMs: state.lastHeartbeatAt === null ? null : now - state.lastHeartbeatAt,
            lastError: state.lastError,
            rejectedFrames: state.stats.rejectedFrames,
            counters: state.stats.counters,
            labels: state.stats.labels,
            host: hostname(),
            remote: false,
          });
          return state;
      }
    },
    spec.id,
    { initialState },
  );
  const ticker = setInterval(() => dispatch(ref, { kind: 'tick' }), TICK_MS);
  ticker.unref();
  dispatch(ref, { kind: 'spawn' });
  return ref;
}
