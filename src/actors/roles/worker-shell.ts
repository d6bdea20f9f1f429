// The process shell every child role runs in: connect to the supervisor's control socket,
// register, heartbeat, obey commands, exit by itself when the supervisor is gone.
//
// A child knows only its role, the control endpoint and the protocol, so the same shell runs a
// worker spawned by a local supervisor or started on another machine (`tti-run worker --join`,
// remote-join.ts: keys from its credential, endpoints through the address it joined). In a run
// whose sockets take CURVE, a process that binds runs the run's key gate (ZAP, src/run/key-gate.ts;
// each socket takes the roles src/run/socket-roles.ts gives it) and holds what it receives to the
// key of the worker it names (src/run/speaker-check.ts).
import os from 'node:os';
import { Config } from '../../config/index.js';
import { createLogger, flushLogger, type Logger, type LogLevel } from '../../log/index.js';
import {
  Channel,
  type CommandMessage,
  type CurveSocketKeys,
  type Endpoints,
  EXIT_REFUSED,
  type Fault,
  Inbound,
  type RegisteredMessage,
  RejectedFrames,
  type Role,
  type SocketTuning,
  SPAWN_NONCE_ENV,
  type SpeakerKey,
  socketLimits,
} from '../../protocol/index.js';
import { curveFor, type KeyGate, SpeakerCheck, type SpeakerClaim, startKeyGate } from '../../run/index.js';
import {
  type Join,
  joinKeys,
  joinRegistration,
  localRegistration,
  rehostAll,
  rehostEndpoints,
  speakerSignature,
} from './remote-join.js';
import { StartRefusedError } from './start-refused.js';

export interface WorkerArgs {
  role: Role;
  workerId: string;
  controlEndpoint: string;
  runDir: string | null;
  /** the pid of the supervisor that spawned this process; null when started by hand */
  parentPid: number | null;
  logLevel: LogLevel;
  registerTimeoutMs: number;
  /** joining from another machine: the supervisor's address and this worker's credential */
  join?: Join | null;
  /** CURVE even on loopback: the run listens for remote workers */
  forceCurve?: boolean;
  /** the machine's name in status (default: the hostname) */
  hostname?: string;
}

/** What a role sees of its process. */
export interface RoleContext {
  readonly role: Role;
  readonly workerId: string;
  readonly runId: string;
  readonly runDir: string | null;
  /** joined from another machine (no run directory, no socket of its own to bind for act) */
  readonly remote: boolean;
  /** the run's policy version when this worker registered */
  readonly runPolicyVersion: number;
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
  /**
   * Declares a long synchronous computation from now (ms; 0 when it is over): the supervisor then
   * waits this long for a heartbeat before it takes the worker for hung (`supervisor.compute_grace_ms`).
   */
  setGrace(ms: number): Promise<void>;
  /**
   * the key this worker's messages speak with, to spread into each message that names its worker id
   * on a socket other than control (an env worker's task requests and results); empty without CURVE
   */
  readonly signature: { key?: SpeakerKey };
  /** sends a message to the supervisor on the control socket (e.g. the learner's `trained`), signed */
  sendControl(message: object): Promise<void>;
  /**
   * whether a received message's key may speak for the worker it names (a trajectory, an act
   * request); false: drop it, it is counted (`wrongKeyMessages`) and logged. True in a run without
   * CURVE, and in a worker that joined from elsewhere: it has no server secret (its relay checks)
   */
  speaks(message: SpeakerClaim, channel: string): boolean;
}

/** The commands a role handles itself (the shell handles shutdown and faults). */
export type RoleCommand = Extract<CommandMessage, { command: 'train' | 'publish_weights' | 'act_endpoints' }>;

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
    // A joining worker also logs to its console, which its machine's manager collects.
    consoleLevel: args.runDir === null || args.join ? 'info' : null,
  });
  const rejected = new RejectedFrames(
    (message) => log.warn(message),
    (message) => log.info(message),
  );
  // A control endpoint off loopback means the run's sockets use CURVE: the keys are in the run
  // directory, or, for a worker that joins from elsewhere, in its credential.
  const join = args.join ?? null;
  let curve: CurveSocketKeys | undefined;
  let gate: KeyGate | null = null;
  try {
    curve = join ? joinKeys(join) : curveFor(args.controlEndpoint, args.runDir, args.forceCurve ?? false);
    // What this process binds (replay, learner, inference) lets in only the run's keys.
    if (curve?.serverSecret !== undefined && args.runDir !== null && args.role !== 'env')
      gate = await startKeyGate(args.runDir, curve, (message) => log.warn(message));
  } catch (error) {
    process.stderr.write(`${args.workerId}: ${(error as Error).message}\n`);
    process.exit(2);
  }
  // Every message after `register` names the key it speaks with: the supervisor drops one whose key
  // is not this worker's (src/run/speaker-check.ts).
  const signature = speakerSignature(join, curve, args.workerId);
  // …and what this process binds holds its senders to the same rule: only a binder with the run's
  // server secret can check (the gate runs exactly there).
  const speakers = new SpeakerCheck(
    gate === null ? null : (curve ?? null),
    () => gate?.list ?? { keys: [] },
    (message) => log.warn(message),
  );
  const tuning: SocketTuning = {
    lingerMs: 200,
    heartbeatIntervalMs: 1000,
    heartbeatTimeoutMs: 5000,
    ...(curve ? { curve } : {}),
  };
  const control = Channel.create('control', 'dealer', Inbound.controlToWorker, rejected, tuning);
  // An unknown or revoked key is refused at the handshake: nothing would ever answer, so say so.
  control.onAuthFailure(
    (address, status) =>
      void exit(
        2,
        `the supervisor at ${address} refused this worker's key (ZAP ${status ?? '?'}): unknown or revoked`,
      ),
  );
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
      gate?.close();
      await flushLogger(log);
    }
    process.exit(code);
  };

  // A crash reaches the supervisor twice: as a worker_error message (best effort) and on stderr,
  // which the supervisor keeps as the worker's last error.
  // A refusal to start exits with EXIT_REFUSED: a restart would only repeat it.
  const die = (error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    const code = error instanceof StartRefusedError ? EXIT_REFUSED : 1;
    control
      .send({ type: 'worker_error', workerId: args.workerId, ...signature, message, fatal: true })
      .catch(() => undefined)
      .finally(() => void exit(code, message));
    setTimeout(() => void exit(code, message), 300).unref();
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
    await control
      .send({ type: 'bye', workerId: args.workerId, ...signature, reason: why })
      .catch(() => undefined);
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
          else if (role === null) early.push(roleCommand(message));
          else if (role.onCommand) role.onCommand(roleCommand(message));
          else log.warn(`ignored a '${message.command}' command: the ${args.role} role has no use for it`);
          return;
      }
    })
    .catch(die);

  // Act endpoints of a remote worker are reached through the address it joined.
  const roleCommand = (command: RoleCommand): RoleCommand =>
    join && command.command === 'act_endpoints' ? { ...command, act: rehostAll(command.act, join) } : command;

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
  const hostname = args.hostname ?? os.hostname();
  // A spawned worker proves it is the process its supervisor started with the nonce it was given;
  // the nonce goes no further (Chromium, an external learner inherit this environment).
  const spawnNonce = process.env[SPAWN_NONCE_ENV];
  delete process.env[SPAWN_NONCE_ENV];
  await control
    .send({
      type: 'register',
      role: args.role,
      workerId: args.workerId,
      pid: process.pid,
      hostname,
      ...(join === null && spawnNonce !== undefined ? { spawn: spawnNonce } : {}),
      ...(join
        ? joinRegistration(join, hostname)
        : curve
          ? localRegistration(curve, args.role, hostname)
          : {}),
    })
    .catch((error: unknown) => {
      // Refused at the handshake meanwhile: the exit under way says why; this send's failure does not.
      if (!exiting) throw error;
    });
  if (exiting) return new Promise<never>(() => undefined);
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

  let graceMs = 0;
  const beat = (): Promise<void> =>
    control
      .send({
        type: 'heartbeat',
        workerId: args.workerId,
        ...signature,
        stats: {
          rejectedFrames: rejected.total,
          busy,
          ...(graceMs > 0 ? { graceMs } : {}),
          counters: Object.assign(
            counters,
            { cutConnections: rejected.cutConnections },
            gate === null ? {} : { authRefused: gate.refused, wrongKeyMessages: speakers.refused },
          ),
          labels,
        },
      })
      .catch(() => undefined);
  setInterval(() => {
    // in a declared computation the supervisor's acks wait in the socket as our heartbeats did
    if (Date.now() - lastHeardFromSupervisor > Math.max(welcome.supervisorTimeoutMs, graceMs)) {
      void exit(1, `no word from the supervisor for ${welcome.supervisorTimeoutMs} ms`);
      return;
    }
    void beat();
  }, welcome.heartbeatIntervalMs).unref();

  const context: RoleContext = {
    role: args.role,
    workerId: args.workerId,
    runId: welcome.runId,
    runDir: args.runDir,
    remote: join !== null,
    runPolicyVersion: welcome.policyVersion ?? 0,
    endpoints: join ? rehostEndpoints(welcome.endpoints, join) : welcome.endpoints,
    config: configResult.data,
    log,
    rejected,
    // The welcome's config bounds every socket the role opens (control is small, and default-bounded).
    tuning: { ...tuning, limits: socketLimits(configResult.data.transport.limits) },
    counters,
    labels,
    setBusy: (b) => {
      busy = b;
    },
    // said at once, and sent before it resolves: the computation it covers holds the event loop
    setGrace: (ms) => {
      // once it is over, the acks it held up are still to be read: count from now
      if (ms === 0 && graceMs > 0) lastHeardFromSupervisor = Date.now();
      graceMs = ms;
      return beat();
    },
    signature,
    sendControl: (message) => control.send({ ...message, ...signature }),
    speaks: (message, channel) => speakers.speaks(message, channel),
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
