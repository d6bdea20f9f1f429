// The loop's Learner (src/loop/learner.ts) in the actor system: one `train` command to the learner
// per iteration, answered by one `trained`. The command is sent again when the learner
// (re)registers while one is pending, since a restarted learner lost it, and retried every second
// while the learner is not registered at all.
import { query, type Ref } from 'nact';
import type { Learner } from '../../loop/index.js';
import type { TrainedMessage } from '../../protocol/index.js';
import type { WorkerMsg } from './worker-actor.js';

interface Pending {
  iteration: number;
  policyVersion: number;
  minPolicyVersion: number | undefined;
  resolve: (m: TrainedMessage) => void;
}

export class TrainCoordinator implements Learner {
  /** the `train` command waiting for its `trained`, if any */
  private pending: Pending | null = null;

  constructor(
    /** the learner's worker actor (null: a run without a learner, e.g. an eval) */
    private readonly learner: () => Ref<WorkerMsg> | null,
    private readonly queryTimeoutMs = 2000,
    private readonly retryMs = 1000,
  ) {}

  /** Asks the learner to train one iteration; resolves with its answer (null without a learner). */
  train(iteration: number, policyVersion: number, minPolicyVersion?: number): Promise<TrainedMessage | null> {
    if (this.learner() === null) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.pending = { iteration, policyVersion, minPolicyVersion, resolve };
      void this.send();
    });
  }

  /** The learner's `trained`: it ends the pending command when it answers that iteration. */
  trained(message: TrainedMessage): void {
    if (this.pending === null || message.iteration !== this.pending.iteration) return;
    const { resolve } = this.pending;
    this.pending = null;
    resolve(message);
  }

  /** The learner (re)registered: what it was asked before it died is asked again. */
  learnerReady(): void {
    if (this.pending !== null) void this.send();
  }

  private async send(): Promise<void> {
    const pending = this.pending;
    const learner = this.learner();
    if (pending === null || learner === null) return;
    const sent = await query(
      learner,
      (replyTo: Ref<boolean>) => ({
        kind: 'send',
        message: {
          type: 'command',
          command: 'train',
          iteration: pending.iteration,
          policyVersion: pending.policyVersion,
          ...(pending.minPolicyVersion === undefined ? {} : { minPolicyVersion: pending.minPolicyVersion }),
        },
        replyTo,
      }),
      this.queryTimeoutMs,
    ).catch(() => false);
    // Not registered yet: the learner's next `ready` sends it (learnerReady); poll meanwhile.
    if (!sent)
      setTimeout(() => void (this.pending === pending ? this.send() : undefined), this.retryMs).unref();
  }
}
