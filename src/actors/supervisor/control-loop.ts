// The control socket's loop: workers register, heartbeat, report errors and say goodbye, and each
// message goes to that worker's actor; the learner's `trained` goes to the train coordinator. A
// register is admitted first (admission.ts: a worker that joined from another machine gets its
// actor there); a message naming a worker the run does not have, or the wrong role, is refused.
// Every other message is dropped unless its key may speak for the worker it names
// (src/run/speaker-check.ts).
import { dispatch, type Ref } from 'nact';
import type { Logger } from '../../log/index.js';
import type { Channel, Inbound, TrainedMessage } from '../../protocol/index.js';
import type { SpeakerClaim } from '../../run/index.js';
import type { WorkerMsg, WorkerSpec } from './worker-actor.js';

export interface WorkerEntry {
  spec: WorkerSpec;
  ref: Ref<WorkerMsg>;
  /** joined from another machine */
  remote?: boolean;
}

/** Decides a `register`: the worker's actor to hand it to, or why it is refused. */
export type Admit = (
  message: Extract<ReturnType<typeof Inbound.controlToSupervisor.parse>, { type: 'register' }>,
) => { ok: true; ref: Ref<WorkerMsg> | null } | { ok: false; reason: string };

/** Serves `control` until it closes; failures of the loop itself are logged. */
export function serveControl(
  control: Channel<typeof Inbound.controlToSupervisor>,
  workers: ReadonlyMap<string, WorkerEntry>,
  onTrained: (message: TrainedMessage) => void,
  log: Logger,
  /** who may register (admission.ts); a null ref: a spawned worker, found by its id */
  admit: Admit = () => ({ ok: true, ref: null }),
  /** whether a later message's key may speak for its worker id (src/run/speaker-check.ts); false: dropped */
  speaks: (message: SpeakerClaim) => boolean = () => true,
): Promise<void> {
  const refuse = (peer: Buffer, reason: string) =>
    control.sendTo(peer, { type: 'refused', reason }).catch(() => undefined);
  return control
    .serve(async ({ message, peer }) => {
      if (peer === null) return;
      if (message.type === 'register') {
        const verdict = admit(message);
        if (!verdict.ok) {
          log.warn(`refused the register of ${message.workerId} from ${message.hostname}: ${verdict.reason}`);
          await refuse(peer, verdict.reason);
          return;
        }
        if (verdict.ref !== null) {
          dispatch(verdict.ref, { kind: 'register', pid: message.pid, peer, hostname: message.hostname });
          return;
        }
      } else if (!speaks(message)) return;
      const worker = workers.get(message.workerId);
      if (worker === undefined) {
        await refuse(peer, `no worker '${message.workerId}' in this run`);
        return;
      }
      switch (message.type) {
        case 'register':
          if (message.role !== worker.spec.role) {
            await refuse(peer, `${message.workerId} is a ${worker.spec.role} worker`);
            return;
          }
          // A remote id is admitted above; a spawned worker's id here must not be a remote one.
          if (worker.remote) {
            await refuse(peer, `${message.workerId} is a remote worker: it registers with its credential`);
            return;
          }
          dispatch(worker.ref, {
            kind: 'register',
            pid: message.pid,
            peer,
            hostname: message.hostname,
            spawn: message.spawn,
          });
          return;
        case 'heartbeat':
          dispatch(worker.ref, { kind: 'heartbeat', stats: message.stats, peer });
          return;
        case 'worker_error':
          dispatch(worker.ref, { kind: 'error', message: message.message });
          return;
        case 'bye':
          dispatch(worker.ref, { kind: 'bye', reason: message.reason });
          return;
        case 'trained':
          onTrained(message);
          return;
      }
    })
    .catch((error: Error) => {
      log.error(`control loop failed: ${error.message}`);
    });
}
