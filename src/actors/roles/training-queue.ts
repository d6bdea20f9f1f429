// How every learner (the tfjs trainer or an external command) takes the supervisor's commands:
// one training pass at a time, and a re-publication of the weights on request.
import type { RoleCommand } from './worker-shell.js';

export type TrainCommand = Extract<RoleCommand, { command: 'train' }>;

export interface TrainingQueue {
  onCommand(command: RoleCommand): void;
  /** resolves when the queued passes have ended; no pass starts after stop() */
  stop(): Promise<void>;
}

/** A failed pass crashes the worker, so that the supervisor restarts it from its checkpoint. */
function crashWorker(error: Error): void {
  setImmediate(() => {
    throw error;
  });
}

export function trainingQueue(
  log: { error(message: string): void },
  publish: () => Promise<unknown>,
  onTrain: (command: TrainCommand) => Promise<void>,
  crash: (error: Error) => void = crashWorker,
): TrainingQueue {
  let training: Promise<void> = Promise.resolve();
  let stopping = false;
  return {
    onCommand(command) {
      // An inference worker that joined late (or missed a publication) hears the weights again.
      if (command.command === 'publish_weights') {
        training = training.then(() =>
          publish().then(
            () => undefined,
            () => undefined,
          ),
        );
        return;
      }
      if (command.command !== 'train') return;
      // A repeated command (the supervisor asking again) queues behind the running pass.
      training = training.then(() =>
        onTrain(command).catch((error: Error) => {
          log.error(`training failed: ${error.message}`);
          // A pass killed by a stop is not a crash.
          if (!stopping) crash(error);
        }),
      );
    },
    async stop() {
      stopping = true;
      await training;
    },
  };
}
