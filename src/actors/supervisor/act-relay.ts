// The act relay for inference workers on other machines. A remote inference worker dials out only
// (no port of its own to open, no address env workers must learn), so the supervisor binds a ROUTER
// front, which env workers use as one more act socket, and a ROUTER back, which remote inference
// workers connect to (src/actors/roles/act-socket.ts is the other end). Each of them says
// `act_ready` on its connection every second, with its key's tag; the relay sends each request to
// one of the workers so announced (in turn) with its sender's routing frame, notes which one, and
// takes the reply to it from that worker's connection only. A reply from any other connection (a
// second inference credential answering someone else's request) is dropped, counted and logged.
// Frames are passed as they are, never decoded: only a request's worker id, key, episode and step
// are read, since the inference worker behind has no server secret to check them with
// (`admitRequest`). (libzmq's own proxy, zmq.Proxy, failed here at once with EAGAIN; two loops do
// the same job.)
import * as zmq from 'zeromq';
import {
  ACT_READY_EVERY_MS,
  actReadyOf,
  type CurveSocketKeys,
  claimOf,
  curveOptions,
  DEFAULT_LIMITS,
  frameLimit,
  limitOptions,
  registerBound,
  SocketHold,
  type SocketLimits,
  turnOf,
} from '../../protocol/index.js';
import type { SocketDomain } from '../../run/index.js';

export interface ActRelay {
  /**
   * requests and replies passed through; requests dropped for want of an inference worker; replies
   * refused because they came from a worker the request did not go to (or answer no request)
   */
  readonly counts: { requests: number; replies: number; dropped: number; refusedReplies: number };
  close(): void;
}

/** A request no inference worker takes within this long is dropped; the env worker sends it again. */
const SEND_TIMEOUT_MS = 1000;
/** A worker behind the relay says `act_ready` every ACT_READY_EVERY_MS; one silent this long gets no request. */
const PEER_SILENT_MS = 3.5 * ACT_READY_EVERY_MS;
/** How long a request waits for its reply in the books, and how many may wait at once. */
const PENDING_MS = 10 * 60_000;
const PENDING_MAX = 20_000;
const LOG_EVERY_MS = 1000;

interface Peer {
  routingId: Buffer;
  workerId: string;
  seenAt: number;
}

interface Pending {
  /** the inference connections it was sent to (a request sent again may go to another) */
  to: Set<string>;
  /** the env worker that asked */
  from: string;
  at: number;
  answered: boolean;
}

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
    /** whether an `act_ready` (its frames after the routing id) speaks for the worker it names */
    admitWorker?: (frames: Buffer[]) => boolean;
    /** a refused reply, rate-limited (one line a second, with how many more) */
    onRefused?: (reason: string) => void;
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
  // mandatory: a request to a worker that has gone fails here, and goes to the next one
  const back = new zmq.Router({
    ...common,
    ...server('relay-back'),
    mandatory: true,
    sendTimeout: SEND_TIMEOUT_MS,
  });
  for (const end of [front, back])
    end.events.on('disconnect', (event) => {
      if (!end.closed) o.onCut?.(event.address, frameLimit(limits, 'act'));
    });
  await front.bind(relay.front);
  await back.bind(relay.back);
  // A revoke cuts the relay's connections too (src/run/key-gate.ts); each end's receives and sends
  // go through its hold, so that the rebind finds nothing pending (socket-hold.ts).
  const frontHold = new SocketHold();
  const backHold = new SocketHold();
  const held = (end: zmq.Router) => (end === front ? frontHold : backHold);
  const releases = [
    registerBound(front, 'relay-front', front.lastEndpoint ?? relay.front, frontHold),
    registerBound(back, 'relay-back', back.lastEndpoint ?? relay.back, backHold),
  ];
  const counts = { requests: 0, replies: 0, dropped: 0, refusedReplies: 0 };
  let closed = false;

  /** the workers behind, by routing id (hex), as their last `act_ready` named them */
  const peers = new Map<string, Peer>();
  const pending = new Map<string, Pending>();
  let turn = 0;
  const keyOf = (envRoutingId: Buffer, t: { episodeId: string; step: number }) =>
    `${envRoutingId.toString('hex')}\0${t.episodeId}\0${t.step}`;
  const nameOf = (routingId: string) => peers.get(routingId)?.workerId ?? 'an unannounced connection';
  const live = (): Peer[] => {
    const now = Date.now();
    for (const [id, peer] of peers) if (now - peer.seenAt > PEER_SILENT_MS) peers.delete(id);
    return [...peers.values()];
  };
  const note = (t: { episodeId: string; step: number } | null, key: string, from: string, to: Buffer) => {
    if (t === null) return;
    const now = Date.now();
    // oldest first: drop what waited past PENDING_MS, and the oldest past PENDING_MAX
    for (const [k, p] of pending) {
      if (now - p.at <= PENDING_MS && pending.size < PENDING_MAX) break;
      pending.delete(k);
    }
    const entry = pending.get(key);
    if (entry === undefined)
      pending.set(key, { to: new Set([to.toString('hex')]), from, at: now, answered: false });
    else {
      // asked again: the env worker has had no reply yet
      entry.to.add(to.toString('hex'));
      entry.answered = false;
    }
  };

  let lastLogAt = 0;
  let unlogged = 0;
  const refuse = (reason: string) => {
    counts.refusedReplies += 1;
    const now = Date.now();
    if (now - lastLogAt >= LOG_EVERY_MS) {
      const more = unlogged > 0 ? ` (+${unlogged} more since the last report)` : '';
      o.onRefused?.(`${reason}${more}`);
      lastLogAt = now;
      unlogged = 0;
    } else unlogged += 1;
  };

  const receive = async (from: zmq.Router): Promise<Buffer[] | null> => {
    for (;;) {
      try {
        return await held(from).use(() => from.receive());
      } catch (error) {
        if (closed) return null;
        // the receive slice ran out (registerBound), or zeromq.js woke a bound CURVE socket once a
        // peer's handshake completed with nothing to read: receive again
        if ((error as { code?: string }).code === 'EAGAIN') continue;
        throw error;
      }
    }
  };
  const dropped = (what: 'requests' | 'replies', error: Error) => {
    counts.dropped += 1;
    o.onDrop?.(what, error);
  };

  const requests = async () => {
    for (;;) {
      const frames = await receive(front);
      if (frames === null) return;
      const [envRoutingId, ...message] = frames;
      if (envRoutingId === undefined) continue;
      if (o.admitRequest !== undefined && !o.admitRequest(message)) continue;
      const t = turnOf(message);
      const asker = claimOf(message)?.workerId ?? 'an env worker';
      // In turn over the workers announced; one gone since its last word is skipped for the next.
      const behind = live();
      let sent = false;
      let lastError: Error = Object.assign(new Error('no inference worker behind the relay'), {
        code: 'EAGAIN',
      });
      for (let i = 0; i < behind.length && !sent && !closed; i++) {
        const peer = behind[(turn + i) % behind.length] as Peer;
        try {
          await backHold.use(() => back.send([peer.routingId, envRoutingId, ...message]));
          note(t, t === null ? '' : keyOf(envRoutingId, t), asker, peer.routingId);
          turn = (turn + i + 1) % Math.max(1, behind.length);
          sent = true;
        } catch (error) {
          lastError = error as Error;
          if ((error as { code?: string }).code === 'EHOSTUNREACH')
            peers.delete(peer.routingId.toString('hex'));
        }
      }
      if (closed) return;
      // No inference worker behind the relay took it in time: dropped, and the env worker sends it
      // again. Nothing here is worth a dead relay.
      if (sent) counts.requests += 1;
      else dropped('requests', lastError);
    }
  };

  const replies = async () => {
    for (;;) {
      const frames = await receive(back);
      if (frames === null) return;
      const [routingId, envRoutingId, ...message] = frames;
      if (routingId === undefined || envRoutingId === undefined) continue;
      const peerId = routingId.toString('hex');
      // [routing id, act_ready]: a worker says who it is on this connection
      const ready = message.length === 0 ? actReadyOf([envRoutingId]) : null;
      if (ready !== null) {
        if (o.admitWorker === undefined || o.admitWorker([envRoutingId]))
          peers.set(peerId, { routingId, workerId: ready.workerId, seenAt: Date.now() });
        else peers.delete(peerId);
        continue;
      }
      const t = turnOf(message);
      if (t === null) {
        refuse(`refused an act reply from ${nameOf(peerId)}: it names no episode and step`);
        continue;
      }
      const entry = pending.get(keyOf(envRoutingId, t));
      if (entry === undefined || !entry.to.has(peerId)) {
        const went =
          entry === undefined
            ? 'no request of it waits'
            : `the request went to ${[...entry.to].map(nameOf).join(', ')}`;
        refuse(
          `refused an act reply for episode ${t.episodeId} step ${t.step} from ${nameOf(peerId)}: ${went}`,
        );
        continue;
      }
      // A request sent again to a second worker may be answered twice: the env takes the first.
      if (entry.answered) continue;
      try {
        await frontHold.use(() => front.send([envRoutingId, ...message]));
        entry.answered = true;
        counts.replies += 1;
      } catch (error) {
        if (closed) return;
        // its env worker is gone: dropped
        dropped('replies', error as Error);
      }
    }
  };
  for (const loop of [requests, replies])
    loop().catch((error: Error) => {
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
