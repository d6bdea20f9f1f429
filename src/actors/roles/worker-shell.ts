// The process shell every child role runs in: connect to the supervisor's control socket,
// register, heartbeat, obey commands, exit by itself when the supervisor is gone.
//
// A child knows only its role, the control endpoint and the protocol, so the same shell runs a
// worker spawned by a local supervisor or started by hand on another machine (`tti-run worker`).
import os from 'node:os';
import { Config } from '../../config/index.js';
import { createLogger, flushLogger, type Logger, type LogLevel } from '../../log/index.js';
import {
  Channel,
  type CommandMessage,
  type CurveKeys,
  type Endpoints,
  type Fault,
  Inbound,
  type RegisteredMessage,
  RejectedFrames,
  type Role,
  type SocketTuning,
} from '../../protocol/index.js';
import { curveFor } from '../../run/index.js';

export interface WorkerArgs {
  role: Role;
  workerId: string;
  controlEndpoint: string;
  runDir: string | null;
  /** the pid of the supervisor that spawned this process; null when started by hand */
  parentPid: number | null;
  logLevel: LogLevel;
  registerTimeoutMs: number;
}

/** What a role sees of its process. */
export interface RoleContext {
  readonly role: Role;
  readonly workerId: string;
  readonly runId: string;
  readonly runDir: string | null;
  readonly endpoints: Endpoints;
  readonly config: Config;
  readonly log: Logger;
  readonly rejected: RejectedFrames;
  readonly tuning: SocketTuning;
  /** role-specific counters, reported in every heartbeat and shown in status */
  readonly counters: Record<string, number>;
  /** role-specific facts in words (e.g. `backend`), reported with the counters */
  readonly labels: Record<string, string>;
  setBusy(busy: boolean): void;
  /** sends a message to the supervisor on the control socket (e.g. the learner's `trained`) */
  sendControl(message: object): Promise<void>;
}

/** The commands a role handles itself (the shell handles shutdown and faults). */
export type RoleCommand = Extract<CommandMessage, { command: 'train' }>;

export interface RoleProcess {
  /** Finish in-flight work (within `deadlineMs`), then close the role's sockets. */
  stop(deadlineMs: number): Promise<void>;
  /** A fault the role itself acts on (e.g. `slow`); the shell handles crash, hang and garbage. */
  injectFault?(fault: Fault): void;
  /** A command from the supervisor for this role (e.g. the learner's `train`). */
  onCommand?(command: RoleCommand): void;
}

export type RoleMain = (ctx: RoleContext) => Promise<RoleProcess>;

const PARENT_CHECK_MS = 250;

export async function runWorker(args: WorkerArgs, loadMain: () => Promise<RoleMain>): Promise<never> {
  // Only this role's modules, and before registering: once registered, the supervisor expects
  // heartbeats, and a large module graph evaluates without yielding to the heartbeat timer.
  const main = await loadMain();
  // stderr is kept for crash lines only: the supervisor reports its last line as the worker's last error.
  const log = createLogger({
    name: args.workerId,
    level: args.logLevel,
    runDir: args.runDir,
    consoleLevel: args.runDir === null ? 'info' : null,
  });
  const rejected = new RejectedFrames((message) => log.warn(message));
  // A control endpoint off loopback means the run's sockets use CURVE: the keys are in the run directory.
  let curve: CurveKeys | undefined;
  try {
    curve = curveFor(args.controlEndpoint, args.runDir);
  } catch (error) {
    process.stderr.write(`${args.workerId}: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const tuning: SocketTuning = {
    lingerMs: 200,
    heartbeatIntervalMs: 1000,
    heartbeatTimeoutMs: 5000,
    ...(curve ? { curve } : {}),
  };
  const control = Channel.create('control', 'dealer', Inbound.controlToWorker, rejected, tuning);
  control.connect(args.controlEndpoint);

  let exiting = false;
  const exit = async (code: number, why: string): Promise<never> => {
    if (!exiting) {
      exiting = true;
      if (code === 0) log.info(`exiting: ${why}`);
      else {
        log.error(`exiting: ${why}`);
        // stderr's last line is what the supervisor reports as this worker's last error.
        process.stderr.write(`${args.workerId}: ${why}\n`);
      }
      control.close();
      await flushLogger(log);
    }
    process.exit(code);
  };

  // A crash reaches the supervisor twice: as a worker_error message (best effort) and on stderr,
  // which the supervisor keeps as the worker's last error.
  const die = (error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    control
      .send({ type: 'worker_error', workerId: args.workerId, message, fatal: true })
      .catch(() => undefined)
      .finally(() => void exit(1, message));
    setTimeout(() => void exit(1, message), 300).unref();
  };
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);

  if (args.parentPid !== null) {
    const parentPid = args.parentPid;
    setInterval(() => {
      if (process.ppid !== parentPid) void exit(1, `supervisor ${parentPid} is gone`);
    }, PARENT_CHECK_MS).unref();
  }
  // Signals from outside (a user's kill, a terminal's Ctrl-C) stop the worker gracefully too.
  let role: RoleProcess | null = null;
  let busy = false;
  let stopping = false;
  const stop = async (deadlineMs: number, why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info(`stopping (${why}), deadline ${deadlineMs} ms`);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, deadlineMs).unref());
    await Promise.race([role?.stop(deadlineMs) ?? Promise.resolve(), deadline]);
    await control.send({ type: 'bye', workerId: args.workerId, reason: why }).catch(() => undefined);
    await exit(0, why);
  };
  process.on('SIGTERM', () => void stop(5000, 'SIGTERM'));
  process.on('SIGINT', () => void stop(5000, 'SIGINT'));

  const early: RoleCommand[] = [];
  const earlyFaults: Fault[] = [];
  const counters: Record<string, number> = {};
  const labels: Record<string, string> = {};
  let lastHeardFromSupervisor = Date.now();
  let resolveRegistered: ((r: RegisteredMessage) => void) | null = null;
  const registered = new Promise<RegisteredMessage>((resolve) => {
    resolveRegistered = resolve;
  });

  void control
    .serve(async ({ message }) => {
      lastHeardFromSupervisor = Date.now();
      switch (message.type) {
        case 'registered':
          resolveRegistered?.(message);
          return;
        case 'heartbeat_ack':
          return;
        case 'refused':
          await exit(1, `the supervisor refused this worker: ${message.reason}`);
          return;
        case 'command':
          if (message.command === 'shutdown')
            await stop(message.deadlineMs, 'shutdown requested by the supervisor');
          else if (message.command === 'fault') injectFault(message.fault);
          // A command can arrive between `registered` and the role being up (a learner loading
          // its checkpoint): it waits for the role rather than being lost.
          else if (role === null) early.push(message);
          else if (role.onCommand) role.onCommand(message);
          else log.warn(`ignored a '${message.command}' command: the ${args.role} role has no use for it`);
          return;
      }
    })
    .catch(die);

  const injectFault = (fault: Fault): void => {
    log.warn(`fault injected: ${fault}`);
    switch (fault) {
      case 'crash':
        setImmediate(() => {
          throw new Error('injected crash');
        });
        return;
      case 'hang':
        // Block the event loop: no heartbeats, no replies, as a wedged process looks.
        setImmediate(() => {
          for (;;) {
            /* hang */
          }
        });
        return;
      case 'garbage':
        void control.sendFrames([Buffer.from('this is not msgpack \xff\x00')]).catch(() => undefined);
        void control.send({ type: 'no_such_message', workerId: args.workerId }).catch(() => undefined);
        return;
      case 'slow':
      case 'host-down':
        // The role's own faults: one that arrives before the role is up (an env worker still
        // launching its browser) waits for it, as early commands do, rather than being lost.
        if (role === null) earlyFaults.push(fault);
        else role.injectFault?.(fault);
        return;
    }
  };

  // Register once the receive loop is running, so the welcome has a reader from the start.
  await control.send({
    type: 'register',
    role: args.role,
    workerId: args.workerId,
    pid: process.pid,
    hostname: os.hostname(),
  });
  const timeout = new Promise<null>((resolve) =>
    setTimeout(() => resolve(null), args.registerTimeoutMs).unref(),
  );
  const welcome = await Promise.race([registered, timeout]);
  if (welcome === null)
    return exit(1, `no answer from the supervisor at ${args.controlEndpoint} to register`);

  const configResult = Config.safeParse(welcome.config);
  if (!configResult.success)
    return exit(1, `the supervisor sent an invalid config: ${configResult.error.message}`);
  log.info(`registered with run ${welcome.runId} as ${args.workerId} (pid ${process.pid})`);

  setInterval(() => {
    if (Date.now() - lastHeardFromSupervisor > welcome.supervisorTimeoutMs) {
      void exit(1, `no word from the supervisor for ${welcome.supervisorTimeoutMs} ms`);
      return;
    }
    void control
      .send({
        type: 'heartbeat',
        workerId: args.workerId,
        stats: { rejectedFrames: rejected.total, busy, counters, labels },
      })
      .catch(() => undefined);
  }, welcome.heartbeatIntervalMs).unref();

  const context: RoleContext = {
    role: args.role,
    workerId: args.workerId,
    runId: welcome.runId,
    runDir: args.runDir,
    endpoints: welcome.endpoints,
    config: configResult.data,
    log,
    rejected,
    tuning,
    counters,
    labels,
    setBusy: (b) => {
      busy = b;
    },
    sendControl: (message) => control.send(message),
  };
  // A role that cannot start (a port taken, a browser that does not launch) is a crash like any other.
  try {
    role = await main(context);
  } catch (error) {
    die(error);
    return new Promise<never>(() => undefined);
  }
  log.info(`${args.role} role started`);
  for (const command of early.splice(0)) {
    if (role.onCommand) role.onCommand(command);
    else log.warn(`ignored a '${command.command}' command: the ${args.role} role has no use for it`);
  }
  for (const fault of earlyFaults.splice(0)) role.injectFault?.(fault);
  // The process lives until a command, a signal or the supervisor's absence ends it.
  return new Promise<never>(() => {
    setInterval(() => undefined, 1 << 30);
  });
}
