// The supervisor's own sockets: control (workers), tasks (env workers), status (the CLI) and the
// event stream, bound where the run's endpoints say (planned here for every socket of the run).
// Sockets other machines can reach are encrypted, with keys only the run directory holds, and the
// key gate (ZAP, src/run/key-gate.ts) checks every client key, a credential against the roles that
// may connect to that socket (src/run/socket-roles.ts). A run that listens for remote
// workers is CURVE throughout, with an act relay when remote inference is expected. Every worker
// message these sockets and the relay take is held to its key's worker by one speaker check
// (src/run/speaker-check.ts). A stale ipc file of a killed run is removed first, or the bind would fail.
import { rmSync } from 'node:fs';
import type { z } from 'zod';
import type { Config } from '../../config/index.js';
import type { Logger } from '../../log/index.js';
import {
  Channel,
  type CurveKeys,
  claimOf,
  type Endpoints,
  Inbound,
  needsCurve,
  type RejectedFrames,
  type RunEvent,
  type SocketLimits,
  type SocketTuning,
  socketLimits,
} from '../../protocol/index.js';
import {
  curveKeysFile,
  ensureCurveKeys,
  type KeyGate,
  type RunDir,
  SpeakerCheck,
  startKeyGate,
} from '../../run/index.js';
import { type ActRelay, startActRelay } from './act-relay.js';
import { planEndpoints } from './endpoints.js';
import type { WorkerSpec } from './worker-actor.js';

export interface SupervisorSockets {
  control: Channel<typeof Inbound.controlToSupervisor>;
  tasks: Channel<typeof Inbound.tasksToSupervisor>;
  status: Channel<typeof Inbound.statusToSupervisor>;
  events: Channel<z.ZodType>;
}

/** Plans every endpoint of the run, creates CURVE keys if they leave loopback, binds the supervisor's. */
export async function openSupervisorSockets(
  runDir: RunDir,
  config: Config,
  specs: readonly WorkerSpec[],
  rejected: RejectedFrames,
  log: Logger,
): Promise<{
  endpoints: Endpoints;
  sockets: SupervisorSockets;
  gate: KeyGate | null;
  relay: ActRelay | null;
  speakers: SpeakerCheck;
}> {
  const ids = (role: string) => specs.filter((s) => s.role === role).map((s) => s.id);
  const { endpoints, note } = await planEndpoints(runDir.sockets, config, {
    inference: ids('inference'),
    fault: ids('fault'),
  });
  if (note) log.warn(note);
  const listening = config.transport.listen !== null;
  const curve = listening || needsCurve(endpoints.control) ? ensureCurveKeys(runDir.root) : undefined;
  let gate: KeyGate | null = null;
  if (curve) {
    log.info(
      `${listening ? `listening at ${config.transport.listen} for remote workers` : 'sockets are off loopback'}: CURVE, keys in ${curveKeysFile(runDir.root)} (0600)`,
    );
    // Before the first bind: no handshake may come in unchecked.
    gate = await startKeyGate(runDir.root, curve, (message) => log.warn(message));
  }
  const speakers = new SpeakerCheck(
    curve ?? null,
    () => gate?.list ?? { keys: [] },
    (message) => log.warn(message),
  );
  const sockets = await bindSupervisorSockets(endpoints, {
    lingerMs: config.transport.linger_ms,
    curve,
    rejected,
    limits: socketLimits(config.transport.limits),
  });
  const relay = endpoints.relay
    ? await startActRelay(endpoints.relay, {
        lingerMs: config.transport.linger_ms,
        curve,
        limits: socketLimits(config.transport.limits),
        onCut: (address, limit) => rejected.cut('the act relay', address, limit),
        onError: (error) => log.error(`the act relay failed: ${error.message}`),
        onDrop: (what, error) =>
          log.debug(
            `act relay dropped one of its ${what}: ${(error as { code?: string }).code ?? error.message}`,
          ),
        // A request that names no worker (not this version, malformed) goes on: inference rejects it.
        admitRequest: (frames) => {
          const claim = claimOf(frames);
          return claim === null || speakers.speaks(claim, 'the act relay');
        },
        // a worker behind it is one only with its own key's tag
        admitWorker: (frames) => {
          const claim = claimOf(frames);
          return claim !== null && speakers.speaks(claim, "the act relay's back");
        },
        onRefused: (reason) => log.warn(`act relay: ${reason}`),
      })
    : null;
  return { endpoints, sockets, gate, relay, speakers };
}

/** Run events go to the event stream (`tti-run attach`) and to listeners in this process. */
export class RunEvents {
  private readonly listeners: ((event: RunEvent) => void)[] = [];

  constructor(private readonly events: Channel<z.ZodType>) {}

  publish = (kind: string, message: string): void => {
    const event: RunEvent = { type: 'run_event', at: Date.now(), kind, message };
    for (const listener of this.listeners) listener(event);
    void this.events.send(event).catch(() => undefined);
  };

  listen(listener: (event: RunEvent) => void): void {
    this.listeners.push(listener);
  }
}

async function bindSupervisorSockets(
  endpoints: Endpoints,
  o: { lingerMs: number; curve: CurveKeys | undefined; rejected: RejectedFrames; limits: SocketLimits },
): Promise<SupervisorSockets> {
  const tuning: SocketTuning = {
    limits: o.limits,
    lingerMs: o.lingerMs,
    heartbeatIntervalMs: 1000,
    heartbeatTimeoutMs: 5000,
    ...(o.curve ? { curve: o.curve } : {}),
  };
  const sockets: SupervisorSockets = {
    control: Channel.create('control', 'router', Inbound.controlToSupervisor, o.rejected, tuning),
    tasks: Channel.create('tasks', 'router', Inbound.tasksToSupervisor, o.rejected, tuning),
    status: Channel.create('status', 'router', Inbound.statusToSupervisor, o.rejected, tuning),
    events: Channel.create('events', 'pub', null, o.rejected, tuning),
  };
  for (const [channel, endpoint] of [
    [sockets.control, endpoints.control],
    [sockets.tasks, endpoints.tasks],
    [sockets.status, endpoints.status],
    [sockets.events, endpoints.events],
  ] as const) {
    if (endpoint.startsWith('ipc://')) rmSync(endpoint.slice('ipc://'.length), { force: true });
    await channel.bind(endpoint);
  }
  return sockets;
}
