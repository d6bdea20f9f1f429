// What a run that listens (`train --listen`) does for workers that join from other machines: it
// admits their `register` (admission.ts) and gives each a remote worker actor, drops a worker whose
// credential is revoked, tells env workers when the act relay has a remote inference worker behind
// it, has the learner publish its weights again for an inference worker that is behind, and counts
// what it refused for status.
import { dispatch } from 'nact';
import type { Config } from '../../config/index.js';
import type { Logger } from '../../log/index.js';
import type { Endpoints, StatusSnapshot, WorkerSnapshot } from '../../protocol/index.js';
import type { KeyGate, SpeakerCheck } from '../../run/index.js';
import { readCurveKeys } from '../../run/index.js';
import type { ActRelay } from './act-relay.js';
import { admit } from './admission.js';
import type { Admit } from './control-loop.js';
import type { WorkerPool } from './worker-pool.js';

export interface RemoteWorkersContext {
  config: Config;
  log: Logger;
  runDir: string;
  endpoints: Endpoints;
  gate: KeyGate | null;
  speakers: SpeakerCheck;
  /** the act relay, when remote inference is expected: its refused replies go into status */
  relay: ActRelay | null;
  /** the run's worker pool (built after this, since its welcome names the act endpoints) */
  workers: () => WorkerPool;
}

export class RemoteWorkers {
  /** the run's CURVE keys (null: a run on ipc or loopback only) */
  readonly keys: ReturnType<typeof readCurveKeys> | null;
  private refusedRegisters = 0;
  /** remote inference workers ready now: env workers use the act relay only while there is one */
  private readonly inference = new Set<string>();
  private lastRepublish = 0;
  private readonly weightsSync: NodeJS.Timeout | null;

  constructor(private readonly ctx: RemoteWorkersContext) {
    this.keys = ctx.gate !== null ? readCurveKeys(ctx.runDir) : null;
    // `tti-run credentials revoke`: the worker is told to go and its work goes back to the queue.
    ctx.gate?.onRevoked((entries) => {
      for (const entry of entries) {
        ctx.log.warn(`credential ${entry.id} revoked; dropping that worker`);
        const worker = ctx.workers().entries.get(entry.id);
        if (worker !== undefined) dispatch(worker.ref, { kind: 'revoked' });
      }
    });
    this.weightsSync = ctx.config.remote.inference > 0 ? setInterval(() => this.syncWeights(), 1000) : null;
    this.weightsSync?.unref();
  }

  /** The act endpoints an env worker uses now: the relay's front too while it has someone behind it. */
  act(): Record<string, string> {
    const { endpoints } = this.ctx;
    return endpoints.relay && this.inference.size > 0
      ? { ...endpoints.act, relay: endpoints.relay.front }
      : endpoints.act;
  }

  /** Decides a `register` (the control loop's admission). */
  readonly admit: Admit = (message) => {
    const { config, gate } = this.ctx;
    const verdict = admit(message, {
      config,
      keys: this.keys,
      allowList: gate?.list ?? { keys: [] },
      joined: (role) => this.ctx.workers().joined(role),
    });
    if (verdict.kind === 'refused') {
      this.refusedRegisters += 1;
      return { ok: false, reason: verdict.reason };
    }
    if (verdict.kind === 'local') return { ok: true, ref: null };
    return {
      ok: true,
      ref: this.ctx.workers().remote({ role: verdict.role, id: verdict.id }, message.hostname),
    };
  };

  /** A worker became ready or exited: env workers hear when the relay gains or loses its last one. */
  workerChanged(id: string, role: string, ready: boolean): void {
    const workers = this.ctx.workers();
    if (role !== 'inference' || workers.entries.get(id)?.remote !== true) return;
    const before = this.inference.size;
    if (ready) this.inference.add(id);
    else this.inference.delete(id);
    if ((before === 0) === (this.inference.size === 0)) return;
    const message = { type: 'command', command: 'act_endpoints', act: this.act() };
    for (const w of workers.entries.values())
      if (w.spec.role === 'env') void workers.send(w.spec.id, message);
  }

  /** What status shows of a listening run; undefined for one that does not listen. */
  status(): ((snapshots: readonly WorkerSnapshot[]) => NonNullable<StatusSnapshot['remote']>) | undefined {
    const { config, gate, speakers } = this.ctx;
    if (config.transport.listen === null) return undefined;
    return (snapshots) => ({
      listen: config.transport.listen ?? '',
      expected: { env: config.remote.env, inference: config.remote.inference },
      refusedConnections: (gate?.refused ?? 0) + this.refusedRegisters,
      // the supervisor's drops, and replay's and inference's from their heartbeats
      wrongKeyMessages: snapshots.reduce((n, w) => n + (w.counters.wrongKeyMessages ?? 0), speakers.refused),
      wrongWorkerReplies: this.ctx.relay?.counts.refusedReplies ?? 0,
    });
  }

  close(): void {
    if (this.weightsSync !== null) clearInterval(this.weightsSync);
  }

  // An inference worker behind the learner (one that joined after the last publication, or missed
  // it while its link was down) gets the weights again: PUB/SUB keeps nothing for late subscribers.
  private syncWeights(): void {
    const workers = this.ctx.workers();
    void workers.snapshots().then(
      (all) => {
        const learner = all.find((w) => w.role === 'learner' && w.state === 'ready');
        const latest = learner?.counters.policyVersion ?? 0;
        const behind = all.filter(
          (w) => w.role === 'inference' && w.state === 'ready' && (w.counters.policyVersion ?? 0) < latest,
        );
        if (learner === undefined || behind.length === 0 || Date.now() - this.lastRepublish < 3000) return;
        this.lastRepublish = Date.now();
        this.ctx.log.info(
          `${behind.map((w) => w.id).join(', ')} behind v${latest}: the learner publishes again`,
        );
        void workers.send(learner.id, { type: 'command', command: 'publish_weights' });
      },
      () => undefined,
    );
  }
}
