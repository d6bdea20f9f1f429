// Thin wrappers over zeromq v6 sockets.
//
// zeromq.js refuses a second send (or receive) while one is pending on the same socket, so each
// Channel owns its socket: sends go through one queue, receives through one loop. Every received
// message is decoded and validated against the socket's schema; a frame that does not decode or
// validate is counted, logged (rate-limited) and dropped.
import * as zmq from 'zeromq';
import type { z } from 'zod';
import { type Decoded, decode, encode } from './codec.js';
import { type CurveSocketKeys, curveOptions } from './curve.js';
import { RECEIVE_SLICE_MS, SocketHold } from './socket-hold.js';
import { DEFAULT_LIMITS, frameLimit, limitOptions, type SocketLimits } from './socket-limits.js';

export interface SocketTuning {
  /** ms a closing socket may spend flushing; bounded so shutdown never hangs */
  lingerMs: number;
  /** ZMTP heartbeats (ZMQ_HEARTBEAT_IVL / TIMEOUT / TTL); 0 disables */
  heartbeatIntervalMs: number;
  heartbeatTimeoutMs: number;
  /** CURVE keys for sockets off loopback (src/protocol/curve.ts; the key file: src/run/curve-keys.ts); none on ipc and loopback */
  curve?: CurveSocketKeys;
  /** frame sizes and queue depths (config `transport.limits`); DEFAULT_LIMITS when absent */
  limits?: SocketLimits;
}

export const DEFAULT_TUNING: SocketTuning = {
  lingerMs: 200,
  heartbeatIntervalMs: 1000,
  heartbeatTimeoutMs: 5000,
};

/** What a process tells about frames it dropped; reported in heartbeats and status. */
export class RejectedFrames {
  total = 0;
  readonly byChannel = new Map<string, number>();
  /**
   * connections cut on a socket that receives, by channel. libzmq cuts a peer that sends a frame
   * over the socket's limit and says only "disconnected", the same word as for a peer that left:
   * both are counted here, apart from `total` (which counts frames seen and refused).
   */
  cutConnections = 0;
  readonly cutByChannel = new Map<string, number>();
  private lastLogAt = 0;
  private unlogged = 0;
  /** per channel: a busy status socket (each CLI call leaves) must not hide a cut on control */
  private readonly cutLog = new Map<string, { at: number; unlogged: number }>();

  constructor(
    private readonly log: (message: string) => void,
    /** where cut connections are told (a lower level: a peer leaving is ordinary); `log` if absent */
    private readonly note: (message: string) => void = log,
  ) {}

  /** A connection on `channel` was cut: its peer left, or sent a frame over `limitBytes`. */
  cut(channel: string, address: string, limitBytes: number): void {
    this.cutConnections += 1;
    this.cutByChannel.set(channel, (this.cutByChannel.get(channel) ?? 0) + 1);
    const now = Date.now();
    const last = this.cutLog.get(channel) ?? { at: 0, unlogged: 0 };
    if (now - last.at >= 1000) {
      const extra = last.unlogged > 0 ? ` (+${last.unlogged} more since the last report)` : '';
      this.note(
        `a connection on ${channel} (${address}) was cut, ${this.cutByChannel.get(channel)} so far: its peer left, or sent a frame over ${limitBytes} bytes, which is dropped${extra}`,
      );
      this.cutLog.set(channel, { at: now, unlogged: 0 });
    } else {
      last.unlogged += 1;
      this.cutLog.set(channel, last);
    }
  }

  record(channel: string, reason: string): void {
    this.total += 1;
    this.byChannel.set(channel, (this.byChannel.get(channel) ?? 0) + 1);
    // A flood of garbage must not become a flood of log lines.
    const now = Date.now();
    if (now - this.lastLogAt >= 1000) {
      const extra = this.unlogged > 0 ? ` (+${this.unlogged} more since the last report)` : '';
      this.log(`rejected a frame on ${channel}: ${reason}${extra}`);
      this.lastLogAt = now;
      this.unlogged = 0;
    } else {
      this.unlogged += 1;
    }
  }
}

/**
 * Every socket this process has bound, with how to cut all its connections: libzmq has no call to
 * drop one peer, and a connection admitted by ZAP stays up after its key is revoked. Unbinding
 * closes every connection accepted on the endpoint; binding again at once lets honest peers redial
 * (ZeroMQ reconnects by itself) and hands each handshake to ZAP again, which refuses the revoked key.
 */
const bound = new Set<{ name: string; rebind(): Promise<void> }>();

/** Cuts every connection on every socket this process binds; peers whose key still passes redial. */
export async function cutBoundConnections(): Promise<{ cut: string[]; failed: string[] }> {
  const cut: string[] = [];
  const failed: string[] = [];
  for (const socket of [...bound]) {
    try {
      await socket.rebind();
      cut.push(socket.name);
    } catch (error) {
      // a socket closing meanwhile has nothing left to cut; one that did not bind again must be said
      if (bound.has(socket)) failed.push(`${socket.name} (${(error as Error).message})`);
    }
  }
  return { cut, failed };
}

/**
 * Registers a bound socket for cutBoundConnections; returns its release. Its owner sends and
 * receives through `hold` (socket-hold.ts), and its receives now wake every RECEIVE_SLICE_MS with
 * EAGAIN, to be asked again, so that a rebind waits for nothing pending.
 */
export function registerBound(
  socket: zmq.Socket,
  name: string,
  endpoint: string,
  hold: SocketHold,
): () => void {
  if ('receiveTimeout' in socket) (socket as zmq.Socket & zmq.Readable).receiveTimeout = RECEIVE_SLICE_MS;
  const entry = { name, rebind: () => hold.hold(() => rebindSocket(socket, endpoint)) };
  bound.add(entry);
  return () => bound.delete(entry);
}

const REBIND_WITHIN_MS = 30_000;

async function rebindSocket(socket: zmq.Socket, endpoint: string): Promise<void> {
  if (socket.closed) return;
  await socket.unbind(endpoint);
  // The endpoint must come back whatever happens meanwhile (EBUSY from a pending operation, a port
  // not yet released): a socket left unbound would take no worker again.
  // ZeroMQ closes the old listener on its I/O thread: on a loaded machine that can take seconds.
  const deadline = Date.now() + REBIND_WITHIN_MS;
  for (;;) {
    if (socket.closed) return;
    try {
      await socket.bind(endpoint);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

type AnySocket = zmq.Router | zmq.Dealer | zmq.Publisher | zmq.Subscriber | zmq.Push | zmq.Pull;
/**
 * `routed-dealer`: a DEALER that connects behind a ROUTER → DEALER relay; each message starts with
 * the original sender's routing frame, so it receives and replies as a ROUTER does (an inference
 * worker on another machine serving through the supervisor's act relay).
 */
export type Kind = 'router' | 'dealer' | 'routed-dealer' | 'pub' | 'sub' | 'push' | 'pull';
const routes = (kind: Kind) => kind === 'router' || kind === 'routed-dealer';

export interface Received<T> extends Decoded<T> {
  /** the sender's routing id, on a ROUTER */
  peer: Buffer | null;
}

export class Channel<S extends z.ZodType> {
  private sendQueue: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly sent = (): void => {
    this.pending -= 1;
  };
  private closed = false;

  private constructor(
    readonly name: string,
    readonly kind: Kind,
    private readonly socket: AnySocket,
    private readonly schema: S | null,
    private readonly rejected: RejectedFrames,
  ) {}

  /** @param schema what may arrive on this socket; null for send-only sockets (PUB, PUSH). */
  static create<S extends z.ZodType>(
    name: string,
    kind: Kind,
    schema: S | null,
    rejected: RejectedFrames,
    tuning: SocketTuning = DEFAULT_TUNING,
  ): Channel<S> {
    const limits = tuning.limits ?? DEFAULT_LIMITS;
    const common = {
      linger: tuning.lingerMs,
      ...(tuning.heartbeatIntervalMs > 0
        ? {
            heartbeatInterval: tuning.heartbeatIntervalMs,
            heartbeatTimeout: tuning.heartbeatTimeoutMs,
            heartbeatTimeToLive: tuning.heartbeatTimeoutMs,
          }
        : {}),
      // Sockets that bind (ROUTER, PUB) are CURVE servers, with the channel's name as ZAP domain;
      // those that connect are its clients.
      ...curveOptions(tuning.curve, kind === 'router' || kind === 'pub' || kind === 'pull' ? name : null),
      ...limitOptions(limits, name, {
        send: kind !== 'sub' && kind !== 'pull',
        receive: kind !== 'pub' && kind !== 'push',
      }),
    };
    const socket: AnySocket = (() => {
      switch (kind) {
        case 'router':
          // mandatory: a reply to a peer that has gone throws (and is logged) instead of vanishing.
          return new zmq.Router({ ...common });
        case 'dealer':
        case 'routed-dealer':
          return new zmq.Dealer(common);
        case 'pub':
          return new zmq.Publisher(common);
        case 'sub':
          return new zmq.Subscriber(common);
        case 'push':
          return new zmq.Push(common);
        case 'pull':
          return new zmq.Pull(common);
      }
    })();
    if (socket instanceof zmq.Subscriber) socket.subscribe();
    // An oversized frame shows only as a cut connection: count every cut on a socket that receives.
    if (schema !== null) {
      const limit = frameLimit(limits, name);
      socket.events.on('disconnect', (event) => {
        if (!socket.closed) rejected.cut(name, event.address, limit);
      });
    }
    return new Channel(name, kind, socket, schema, rejected);
  }

  private release: (() => void) | null = null;
  /** a bound socket's sends and receives, held while a revoke rebinds it (socket-hold.ts) */
  private hold: SocketHold | null = null;

  async bind(endpoint: string): Promise<void> {
    await this.socket.bind(endpoint);
    // ipc and tcp: the endpoint as bound (a tcp port 0 resolved) is what a rebind needs
    const bound = this.socket.lastEndpoint ?? endpoint;
    this.hold = new SocketHold();
    this.release = registerBound(this.socket, this.name, bound, this.hold);
  }

  connect(endpoint: string): void {
    this.socket.connect(endpoint);
  }

  disconnect(endpoint: string): void {
    this.socket.disconnect(endpoint);
  }

  /** Calls `listener` when a CURVE server refuses this socket's key (ZAP said no). */
  onAuthFailure(listener: (address: string, status: number | null) => void): void {
    this.socket.events.on('handshake:error:auth', (event) =>
      listener(event.address, event.error?.status ?? null),
    );
  }

  get endpoint(): string | null {
    return this.socket.lastEndpoint ?? null;
  }

  /** Queues a message; resolves once ZeroMQ has taken it. Rejects only on a closed channel. */
  send(message: object, raw: readonly Buffer[] = []): Promise<void> {
    return this.sendFrames(encode(message, raw));
  }

  /** Sends to one peer of a ROUTER. A peer that has gone is logged by the caller's catch. */
  sendTo(peer: Buffer, message: object, raw: readonly Buffer[] = []): Promise<void> {
    // encode returns a new array: put the routing frame in front rather than spread a copy.
    const frames: Buffer[] = encode(message, raw);
    frames.unshift(peer);
    return this.sendFrames(frames);
  }

  /** Sends frames as they are; for tests and benchmarks that need to bypass encoding. */
  sendFrames(frames: readonly (Buffer | string)[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`channel ${this.name} is closed`));
    const socket = this.socket;
    if (!('send' in socket)) return Promise.reject(new Error(`channel ${this.name} cannot send`));
    // Straight to the socket when nothing is queued; otherwise behind the sends already waiting.
    // A bound socket's send also waits for a rebind under way (socket-hold.ts).
    const hold = this.hold;
    const go = () =>
      hold === null
        ? socket.send(frames as (Buffer | string)[])
        : hold.use(() => socket.send(frames as (Buffer | string)[]));
    const next = this.pending === 0 ? go() : this.sendQueue.then(go);
    this.pending += 1;
    // The queue continues after a failed send; the caller sees the failure.
    this.sendQueue = next.then(this.sent, this.sent);
    return next;
  }

  /**
   * The next valid message, or null once the channel is closed; frames that do not decode or
   * validate on the way are counted and dropped. The caller's loop is then this socket's one
   * receive loop (zeromq.js allows one pending receive per socket): use it or `serve`, not both.
   */
  async receive(): Promise<Received<z.infer<S>> | null> {
    const socket = this.socket;
    const schema = this.schema;
    if (!('receive' in socket) || schema === null) throw new Error(`channel ${this.name} cannot receive`);
    while (!this.closed) {
      let frames: Buffer[];
      try {
        frames = await (this.hold?.use(() => socket.receive()) ?? socket.receive());
      } catch (error) {
        if (this.closed || socket.closed) return null;
        // a bound socket's receive slice ran out (socket-hold.ts), or zeromq.js woke a CURVE server
        // after a handshake with nothing to read: receive again
        if ((error as { code?: string }).code === 'EAGAIN') continue;
        throw error;
      }
      const peer = routes(this.kind) ? (frames.shift() ?? null) : null;
      const result = decode(schema, frames);
      if (result.ok) return { message: result.value.message, raw: result.value.raw, peer };
      this.rejected.record(this.name, result.reason);
    }
    return null;
  }

  /**
   * The one receive loop of this socket. Calls `handle` for each valid message in arrival order
   * (awaiting it, so a slow handler applies backpressure); returns when the channel closes.
   */
  async serve(
    handle: (inbound: Received<z.infer<S>>) => void | Promise<void>,
    /** before each receive: a promise to wait for first (nothing expected yet), or undefined */
    gate?: () => Promise<void> | undefined,
  ): Promise<void> {
    while (!this.closed) {
      const wait = gate?.();
      if (wait !== undefined) {
        await wait;
        if (this.closed) return;
      }
      const inbound = await this.receive();
      if (inbound === null) return;
      // Await only handlers that return a promise: an extra microtask per message shows in latency.
      const pending = handle(inbound);
      if (pending !== undefined) await pending;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.release?.();
    this.socket.close();
  }
}

/**
 * Request/reply over a DEALER: one receive loop matches each reply to the request waiting for it.
 * A reply that matches no waiting request (it came after its timeout) is counted and dropped.
 * Deadlines are swept by one timer rather than a timer per request.
 */
export class Requester<S extends z.ZodType> {
  private readonly waiting = new Set<{
    matches: (m: z.infer<S>) => boolean;
    resolve: (r: Received<z.infer<S>> | null) => void;
    deadline: number;
  }>();
  private sweeper: NodeJS.Timeout | null = null;
  staleReplies = 0;

  constructor(
    private readonly channel: Channel<S>,
    private readonly sweepMs = 20,
  ) {
    void channel.serve((inbound) => {
      for (const waiter of this.waiting) {
        if (waiter.matches(inbound.message)) {
          this.waiting.delete(waiter);
          waiter.resolve(inbound);
          return;
        }
      }
      this.staleReplies += 1;
    }, this.gate);
  }

  /** Resolves the receive loop's wait, once a request is out. */
  private wake: (() => void) | null = null;

  /**
   * The receive loop waits while no request is out, and receives once one has been sent. A receive
   * left pending on a zeromq.js socket across the send costs a spurious wake-up of the event loop
   * per message (≈40 µs of CPU per round trip, bench/transport); a reply that arrives late waits in
   * the socket and is counted as stale on the next receive.
   */
  private readonly gate = (): Promise<void> | undefined =>
    this.waiting.size > 0
      ? undefined
      : new Promise<void>((resolve) => {
          this.wake = resolve;
        });

  private wakeLoop(): void {
    const wake = this.wake;
    if (wake === null) return;
    this.wake = null;
    wake();
  }

  private sweep(): void {
    const now = Date.now();
    for (const waiter of this.waiting) {
      if (waiter.deadline <= now) {
        this.waiting.delete(waiter);
        waiter.resolve(null);
      }
    }
    if (this.waiting.size === 0 && this.sweeper !== null) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /** Resolves with the matching reply, or null after about `timeoutMs`; rejects if the send fails. */
  request(
    message: object,
    matches: (reply: z.infer<S>) => boolean,
    timeoutMs: number,
    raw: readonly Buffer[] = [],
  ): Promise<Received<z.infer<S>> | null> {
    if (this.sweeper === null) {
      this.sweeper = setInterval(() => this.sweep(), this.sweepMs);
      this.sweeper.unref();
    }
    return new Promise<Received<z.infer<S>> | null>((resolve, reject) => {
      const waiter = { matches, resolve, deadline: Date.now() + timeoutMs };
      this.waiting.add(waiter);
      // Not awaited: the reply is what the caller waits for; a failed send ends the wait.
      this.channel.send(message, raw).catch((error: unknown) => {
        this.waiting.delete(waiter);
        reject(error);
      });
      this.wakeLoop();
    });
  }

  close(): void {
    this.channel.close();
    this.wakeLoop();
    if (this.sweeper !== null) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const waiter of this.waiting) waiter.resolve(null);
    this.waiting.clear();
  }
}
