// How much one socket may hold: the largest frame by what the socket carries, and its queues.
/**
 * What one socket may hold. libzmq refuses a frame over ZMQ_MAXMSGSIZE from its length prefix,
 * before allocating it, by cutting that peer's connection (the peer redials; the frame is gone):
 * a peer cannot make a process buffer more than this per frame. High-water marks bound how many
 * messages wait in each direction.
 */
export interface SocketLimits {
  /** control, tasks, status, events, act, probe: commands, episodes, one step's observation */
  frameBytes: number;
  /** trajectories and samples: a whole trajectory or a batch of them (replay's record cap) */
  trajectoryFrameBytes: number;
  /** weights: one tensor of a policy */
  weightsFrameBytes: number;
  sendHighWaterMark: number;
  receiveHighWaterMark: number;
}

const MiB = 1024 * 1024;
export const DEFAULT_LIMITS: SocketLimits = {
  frameBytes: 16 * MiB,
  trajectoryFrameBytes: 256 * MiB,
  weightsFrameBytes: 1024 * MiB,
  sendHighWaterMark: 1000,
  receiveHighWaterMark: 1000,
};

/** The limits config `transport.limits` gives (sizes in MiB). */
export function socketLimits(config: {
  frame_mb: number;
  trajectory_frame_mb: number;
  weights_frame_mb: number;
  send_hwm: number;
  receive_hwm: number;
}): SocketLimits {
  return {
    frameBytes: config.frame_mb * MiB,
    trajectoryFrameBytes: config.trajectory_frame_mb * MiB,
    weightsFrameBytes: config.weights_frame_mb * MiB,
    sendHighWaterMark: config.send_hwm,
    receiveHighWaterMark: config.receive_hwm,
  };
}

/** The largest frame the socket named `name` takes: sized for its largest legitimate message. */
export function frameLimit(limits: SocketLimits, name: string): number {
  if (name === 'weights') return limits.weightsFrameBytes;
  if (name === 'trajectories' || name === 'samples') return limits.trajectoryFrameBytes;
  return limits.frameBytes;
}

/**
 * libzmq options for a socket named `name`: its frame limit and the high-water marks of the
 * directions it has (zeromq.js refuses an option a socket type lacks: PUB and PUSH only send, SUB
 * and PULL only receive).
 */
export function limitOptions(
  limits: SocketLimits,
  name: string,
  directions: { send: boolean; receive: boolean } = { send: true, receive: true },
): object {
  return {
    maxMessageSize: frameLimit(limits, name),
    ...(directions.send ? { sendHighWaterMark: limits.sendHighWaterMark } : {}),
    ...(directions.receive ? { receiveHighWaterMark: limits.receiveHighWaterMark } : {}),
  };
}
