// What each socket accepts: the union of the messages that may arrive on it.
import { z } from 'zod';
import { ActReply, ActRequest } from './act.js';
import {
  Bye,
  Command,
  Heartbeat,
  HeartbeatAck,
  Refused,
  Register,
  Registered,
  Trained,
  WorkerError,
} from './control.js';
import { ControlReply, InjectFault, RunEvent, StatusReply, StatusRequest, StopRequest } from './status.js';
import { EpisodeResult, EpisodeReturned, NoTask, ResultAck, TaskAssignment, TaskRequest } from './tasks.js';
import { SampleBatch, SampleRequest, TrajectoryAck, TrajectoryMessage } from './trajectories.js';
import { Weights } from './weights.js';

/** Each socket validates against the union of the messages that may arrive on it: a known message
 * on the wrong socket is rejected like an unknown one. */
export const Inbound = {
  controlToSupervisor: z.discriminatedUnion('type', [Register, Heartbeat, WorkerError, Bye, Trained]),
  controlToWorker: z.union([Registered, HeartbeatAck, Command, Refused]),
  tasksToSupervisor: z.discriminatedUnion('type', [TaskRequest, EpisodeResult, EpisodeReturned]),
  tasksToEnv: z.discriminatedUnion('type', [TaskAssignment, NoTask, ResultAck]),
  actToInference: ActRequest,
  actToEnv: ActReply,
  trajectoriesToReplay: TrajectoryMessage,
  trajectoriesToEnv: TrajectoryAck,
  samplesToReplay: SampleRequest,
  samplesToLearner: SampleBatch,
  weightsToInference: Weights,
  statusToSupervisor: z.discriminatedUnion('type', [StatusRequest, StopRequest, InjectFault]),
  statusToClient: z.discriminatedUnion('type', [StatusReply, ControlReply]),
  events: RunEvent,
} as const;

export type InboundSchema = (typeof Inbound)[keyof typeof Inbound];
export type MessageOf<S extends z.ZodType> = z.infer<S>;
