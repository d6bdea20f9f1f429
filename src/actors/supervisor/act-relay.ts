// The act relay for inference workers on other machines. A remote inference worker dials out only
// (no port of its own to open, no address env workers must learn), so the supervisor binds a ROUTER
// front, which env workers use as one more act socket, and a DEALER back, which remote inference
// workers connect to (src/actors/roles/act-socket.ts is the other end). Each request goes on with
// its sender's routing frame, round-robin over the inference workers behind; each reply comes back
// with it and goes to that sender. Frames are passed as they are, never decoded: only a request's
// worker id and key are read, since the inference worker behind has no server secret to check them
// with (`admitRequest`). (libzmq's own proxy, zmq.Proxy, failed here at once with EAGAIN; two loops
// do the same job.)
import * as zmq from 'zeromq';
import {
  type CurveSocketKeys,
  curveOptions,
  DEFAULT_LIMITS,
  frameLimit,
  limitOptions,
  registerBound,
  type SocketLimits,
} from '../../protocol/index.js';
import type { SocketDomain } from '../../run/index.js';

export interface ActRelay {
  /** requests and replies passed through, and requests dropped for want of an inference worker */
  readonly counts: { requests: number; replies: number; dropped: number };
  close(): void;
}

/** A request no inference worker takes within this long is dropped; the env worker sends it again. */
const SEND_TIMEOUT_MS = 1000;

export async function startActRelay(
  relay: { front: string; back: string },
  o: {
    lingerMs: number;
    curve: CurveSocketKeys | undefined;
    /** DEFAULT_LIMITS when absent */
    limits?: SocketLimits;
    /** a connection on either end was cut: its peer left, or sent a frame over `limit` bytes */
    onCut?: (address: string, limit: number) => void;
    onError: (error: Error) => void;
    onDrop?: (what: 'requests' | 'replies', error: Error) => void;
    /** whether a request (its frames after the routing id) goes on; false: dropped unanswered */
    admitRequest?: (frames: Buffer[]) => boolean;
  },
): Promise<ActRelay> {
  const limits = o.limits ?? DEFAULT_LIMITS;
  const common = {
    linger: o.lingerMs,
    heartbeatInterval: 1000,
    heartbeatTimeout: 5000,
    heartbeatTimeToLive: 5000,
    ...limitOptions(limits, 'act'),
  };
  // Each end its own ZAP domain: env workers' keys belong on the front, inference workers' on the back.
  const server = (domain: SocketDomain) => curveOptions(o.curve, domain);
  const front = new zmq.Router({ ...common, ...server('relay-front') });
  const back = new zmq.Dealer({ ...common, ...server('relay-back'), sendTimeout: SEND_TIMEOUT_MS });
  for (const end of [front, back])
    end.events.on('disconnect', (event) => {
      if (!end.closed) o.onCut?.(event.address, frameLimit(limits, 'act'));
    });
  await front.bind(relay.front);
  await back.bind(relay.back);
  // A revoke cuts the relay's connections too (src/run/key-gate.ts).
  const releases = [
    registerBound(front, 'relay-front', front.lastEndpoint ?? relay.front),
    registerBound(back, 'relay-back', back.lastEndpoint ?? relay.back),
  ];
  const counts = { requests: 0, replies: 0, dropped: 0 };
  let closed = false;
  const pass = async (
    from: zmq.Router | zmq.Dealer,
    to: zmq.Router | zmq.Dealer,
    count: 'requests' | 'replies',
  ) => {
    for (;;) {
      let frames: Buffer[];
      try {
        frames = await from.receive();
      } catch (error) {
        if (closed) return;
        // zeromq.js wakes a bound CURVE DEALER (with a ZAP handler in the process) once a peer's
        // handshake completes and then reports EAGAIN: nothing arrived, receive again.
        if ((error as { code?: string }).code === 'EAGAIN') continue;
        // a revoke's rebind is under way (registerBound): receive once it is done
        if ((error as { code?: string }).code === 'EBUSY') {
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        throw error;
      }
      if (count === 'requests' && o.admitRequest !== undefined && !o.admitRequest(frames.slice(1))) continue;
      try {
        await to.send(frames);
        counts[count] += 1;
      } catch (error) {
        if (closed) return;
        // No inference worker behind the relay took it in time (EAGAIN), or its env worker is
        // gone: dropped, and the env worker sends it again. Nothing here is worth a dead relay.
        counts.dropped += 1;
        o.onDrop?.(count, error as Error);
      }
    }
  };
  for (const [from, to, count] of [
    [front, back, 'requests'],
    [back, front, 'replies'],
  ] as const)
    pass(from, to, count).catch((error: Error) => {
      if (!closed) o.onError(error);
    });
  return {
    counts,
    close() {
      if (closed) return;
      closed = true;
      for (const release of releases) release();
      front.close();
      back.close();
    },
  };
}
