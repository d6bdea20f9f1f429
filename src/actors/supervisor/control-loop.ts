// The control socket's loop: workers register, heartbeat, report errors and say goodbye, and each
// message goes to that worker's actor; the learner's `trained` goes to the train coordinator. A
// message naming a worker the run does not have, or the wrong role, is refused.
import { dispatch, type Ref } from 'nact';
import type { Logger } from '../../log/index.js';
import type { Channel, Inbound, TrainedMessage } from '../../protocol/index.js';
import type { WorkerMsg, WorkerSpec } from './worker-actor.js';

export interface WorkerEntry {
  spec: WorkerSpec;
  ref: Ref<WorkerMsg>;
}

/** Serves `control` until it closes; failures of the loop itself are logged. */
export function serveControl(
  control: Channel<typeof Inbound.controlToSupervisor>,
  workers: ReadonlyMap<string, WorkerEntry>,
  onTrained: (message: TrainedMessage) => void,
  log: Logger,
): Promise<void> {
  const refuse = (peer: Buffer, reason: string) =>
    control.sendTo(peer, { type: 'refused', reason }).catch(() => undefined);
  return control
    .serve(async ({ message, peer }) => {
      if (peer === null) return;
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
          dispatch(worker.ref, { kind: 'register', pid: message.pid, peer });
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
