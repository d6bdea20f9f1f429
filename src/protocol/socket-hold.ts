// A bound socket's receives and sends, held while it rebinds (a revoke's cut, transport.ts).
//
// zeromq.js runs bind and unbind on a libuv worker thread while the main thread's poller may still
// touch the same socket for a pending receive or send; libzmq sockets are not thread-safe, and the
// race was seen to hang a rebind for good (a supervisor that never answered again) and to abort a
// worker (`pipe.cpp:355` assertion). So a rebind starts only once nothing is pending, and new
// receives and sends wait for it. A bound socket's receive wakes every RECEIVE_SLICE_MS (EAGAIN) so
// that a receive waiting for a quiet peer cannot hold a rebind off.

/** How long a bound socket's receive waits before it returns EAGAIN and is asked again. */
export const RECEIVE_SLICE_MS = 250;

export class SocketHold {
  private inFlight = 0;
  private drained: (() => void) | null = null;
  /** a rebind under way: resolves when it is done */
  private held: Promise<void> | null = null;
  private readonly settled = (): void => {
    this.inFlight -= 1;
    if (this.inFlight === 0) this.drained?.();
  };

  /** Runs one receive or send on the socket, after any rebind under way (no extra tick otherwise). */
  use<T>(op: () => Promise<T>): Promise<T> {
    if (this.held !== null) return this.held.then(() => this.use(op));
    this.inFlight += 1;
    let pending: Promise<T>;
    try {
      pending = op();
    } catch (error) {
      this.settled();
      return Promise.reject(error);
    }
    pending.then(this.settled, this.settled);
    return pending;
  }

  /** Runs `rebind` once no receive or send is pending; those asked for meanwhile wait for it. */
  async hold(rebind: () => Promise<void>): Promise<void> {
    while (this.held !== null) await this.held;
    let release: () => void = () => undefined;
    this.held = new Promise((resolve) => {
      release = resolve;
    });
    try {
      if (this.inFlight > 0)
        await new Promise<void>((resolve) => {
          this.drained = resolve;
        });
      this.drained = null;
      await rebind();
    } finally {
      this.held = null;
      release();
    }
  }
}
