// Snapshots of the weights that inference keeps serving while it serves newer ones to collection:
// the asynchronous loop's eval pins its episodes to one named version (rollout.max_policy_lag ≥ 1),
// and every one of its act requests names it. A version a request pinned is moved aside, not
// overwritten, when newer weights arrive; one this worker never held (it restarted, or the weights
// moved on before the eval's first request) is loaded from the run's checkpoint of that version.
import path from 'node:path';
import { CheckpointStore, loadModelCheckpoint, type TensorFrames, TfjsPolicy } from '../../model/index.js';
import type { RoleContext } from './worker-shell.js';

export interface Served {
  policy: TfjsPolicy;
  version: number;
}

export class HeldPolicies {
  private readonly held = new Map<number, TfjsPolicy>();
  /** the newest version a request was pinned to */
  private pinned: number | null = null;
  private missingLogged = new Set<number>();

  constructor(
    private readonly ctx: RoleContext,
    /** snapshots kept at most (an eval at a time, and one more while the next starts) */
    private readonly max = 2,
  ) {}

  /** The policy that answers a request pinned to `version` (absent: the one served now). */
  policyFor(version: number | undefined, current: Served): Served {
    if (version === undefined) return current;
    this.pinned = Math.max(this.pinned ?? version, version);
    this.count('pinnedActions');
    if (version === current.version) return current;
    const held = this.held.get(version) ?? this.load(version);
    if (held === null) return current;
    return { policy: held, version };
  }

  /**
   * New weights are about to replace `current`: when a request pinned its version, it is kept as a
   * snapshot and the weights go into a new policy, returned; null: import them in place.
   */
  swapOut(current: Served, incoming: TensorFrames): TfjsPolicy | null {
    if (this.pinned !== current.version || this.held.has(current.version)) return null;
    const next = TfjsPolicy.fromWeights(current.policy.options, incoming);
    this.keep(current.version, current.policy);
    return next;
  }

  dispose(): void {
    for (const policy of this.held.values()) policy.dispose();
    this.held.clear();
  }

  private load(version: number): TfjsPolicy | null {
    const { ctx } = this;
    try {
      if (ctx.runDir === null) throw new Error('no run directory to load it from');
      const store = new CheckpointStore(
        path.join(ctx.runDir, 'checkpoints'),
        ctx.config.model.keep_checkpoints,
      );
      const loaded = loadModelCheckpoint(store.pathOf(version));
      ctx.log.info(`holding v${version} for the requests pinned to it (from ${loaded.path})`);
      this.keep(version, loaded.policy);
      return loaded.policy;
    } catch (error) {
      // The episode goes on under the newest weights; its trajectory records which version acted.
      this.count('pinnedMissing');
      if (!this.missingLogged.has(version))
        ctx.log.warn(
          `v${version}, pinned by a request, is not held: ${(error as Error).message}; serving the newest`,
        );
      this.missingLogged.add(version);
      return null;
    }
  }

  private keep(version: number, policy: TfjsPolicy): void {
    this.held.set(version, policy);
    while (this.held.size > this.max) {
      const oldest = Math.min(...this.held.keys());
      this.held.get(oldest)?.dispose();
      this.held.delete(oldest);
    }
    this.ctx.counters.heldVersions = this.held.size;
  }

  private count(key: string): void {
    this.ctx.counters[key] = (this.ctx.counters[key] ?? 0) + 1;
  }
}
