// The run's workers: one WorkerActor per child process, by id, and one remote worker actor per
// worker that joined from another machine (added when it first registers). What the supervisor
// asks of them all goes through here: their snapshots, a command or fault for one, and the stop in
// order of roles.
import { setTimeout as sleep } from 'node:timers/promises';
import { dispatch, query, type Ref } from 'nact';
import type { Config } from '../../config/index.js';
import type { Logger } from '../../log/index.js';
import type { Fault, Role, WorkerSnapshot } from '../../protocol/index.js';
import type { WorkerEntry } from './control-loop.js';
import { spawnRemoteWorkerActor } from './remote-worker-actor.js';
import { spawnWorkerActor, type WorkerEnv, type WorkerMsg, type WorkerSpec } from './worker-actor.js';

export const QUERY_TIMEOUT_MS = 2000;

/** Roles stop in this order, so that work in flight reaches the roles that keep it. */
const SHUTDOWN_PHASES: readonly (readonly Role[])[] = [
  ['env', 'fault'],
  ['inference', 'learner'],
  ['replay'],
];

const INFERENCE_SWAP_TIMEOUT_MS = 60000;

/** The run's workers, replay and learner first: what they serve is up before env workers ask. */
export function workerSpecs(config: Config): WorkerSpec[] {
  const specs: WorkerSpec[] = [];
  for (const role of ['replay', 'learner', 'inference', 'env', 'fault'] as const) {
    for (let i = 0; i < config.workers[role]; i++) specs.push({ role, id: `${role}-${i}` });
  }
  return specs;
}

export class WorkerPool {
  readonly entries = new Map<string, WorkerEntry>();

  /** Spawns an actor (and so a child process) per spec. */
  constructor(
    private readonly system: Ref<never>,
    specs: readonly WorkerSpec[],
    private readonly env: WorkerEnv,
  ) {
    for (const spec of specs) this.entries.set(spec.id, { spec, ref: spawnWorkerActor(system, spec, env) });
  }

  /** The actor of a worker that joined from another machine; created at its first register. */
  remote(spec: WorkerSpec, host: string): Ref<WorkerMsg> {
    const known = this.entries.get(spec.id);
    if (known !== undefined) return known.ref;
    const ref = spawnRemoteWorkerActor(this.system, spec, host, this.env);
    this.entries.set(spec.id, { spec, ref, remote: true });
    return ref;
  }

  /** Ids of the remote workers of a role that joined at least once. */
  joined(role: Role): Set<string> {
    return new Set(
      [...this.entries.values()].filter((w) => w.remote && w.spec.role === role).map((w) => w.spec.id),
    );
  }

  /** Sends a control message to a worker; resolves whether it went out. */
  send(workerId: string, message: object): Promise<boolean> {
    const worker = this.entries.get(workerId);
    if (worker === undefined) return Promise.resolve(false);
    return query(
      worker.ref,
      (replyTo: Ref<boolean>) => ({ kind: 'send', message, replyTo }),
      QUERY_TIMEOUT_MS,
    );
  }

  /** The first worker of a role's actor (the learner's: there is one). */
  first(role: Role): Ref<WorkerMsg> | null {
    return [...this.entries.values()].find((w) => w.spec.role === role)?.ref ?? null;
  }

  /** Each worker's snapshot; one whose actor is busy past the query timeout shows as `unhealthy`. */
  snapshots(members = [...this.entries.values()]): Promise<WorkerSnapshot[]> {
    return Promise.all(
      members.map(({ ref, spec, remote }) =>
        query(ref, (replyTo: Ref<WorkerSnapshot>) => ({ kind: 'snapshot', replyTo }), QUERY_TIMEOUT_MS).catch(
          (): WorkerSnapshot => ({
            role: spec.role,
            id: spec.id,
            state: 'unhealthy',
            restarts: 0,
            lastHeartbeatMs: null,
            lastError: `its actor did not answer within ${QUERY_TIMEOUT_MS} ms`,
            rejectedFrames: 0,
            counters: {},
            labels: {},
            ...(remote ? { remote } : {}),
          }),
        ),
      ),
    );
  }

  /** Restarts over all workers, for metrics. */
  async restarts(): Promise<number> {
    return (await this.snapshots()).reduce((n, w) => n + w.restarts, 0);
  }

  /** Waits until every inference worker reports weights of `version` (or the run stops). */
  async awaitInferenceVersion(version: number, running: () => boolean, log: Logger): Promise<void> {
    const deadline = Date.now() + INFERENCE_SWAP_TIMEOUT_MS;
    while (Date.now() < deadline && running()) {
      // A remote worker that is lost or not there yet does not hold the run back.
      const inference = (await this.snapshots()).filter(
        (w) => w.role === 'inference' && (!w.remote || w.state === 'ready'),
      );
      if (inference.every((w) => (w.counters.policyVersion ?? 0) >= version)) return;
      await sleep(100);
    }
    if (running())
      log.warn(`inference did not report weights v${version} within ${INFERENCE_SWAP_TIMEOUT_MS} ms`);
  }

  /** What the worker says about the fault; null when the run has no such worker. */
  async fault(workerId: string, fault: Fault): Promise<string | null> {
    const worker = this.entries.get(workerId);
    if (worker === undefined) return null;
    return query(worker.ref, (replyTo: Ref<string>) => ({ kind: 'fault', fault, replyTo }), QUERY_TIMEOUT_MS);
  }

  /** Shuts the roles down phase by phase until `deadline`; whatever is left is killed with its group. */
  async stopInOrder(shutdownTimeoutMs: number, deadline: number): Promise<void> {
    for (const roles of SHUTDOWN_PHASES) {
      const members = [...this.entries.values()].filter((w) => roles.includes(w.spec.role));
      for (const { ref } of members) dispatch(ref, { kind: 'shutdown', deadlineMs: shutdownTimeoutMs });
      while (Date.now() < deadline) {
        if ((await this.snapshots(members)).every((s) => s.state === 'stopped')) break;
        await sleep(50);
      }
    }
    for (const { ref } of this.entries.values()) dispatch(ref, { kind: 'kill' });
  }
}
