// The act relay for inference workers on other machines. A remote inference worker dials out only
// (no port of its own to open, no address env workers must learn), so the supervisor binds a ROUTER
// front, which env workers use as one more act socket, and a DEALER back, which remote inference
// workers connect to; libzmq's proxy passes each request on with its sender's routing frame and
// the reply back to that sender (src/actors/roles/act-socket.ts is the other end). The proxy runs
// on a libuv thread: relayed frames cost the supervisor's event loop nothing.
import * as zmq from 'zeromq';
import { type CurveSocketKeys, curveOptions } from '../../protocol/index.js';

export interface ActRelay {
  close(): void;
}

export async function startActRelay(
  relay: { front: string; back: string },
  o: { lingerMs: number; curve: CurveSocketKeys | undefined; onError: (error: Error) => void },
): Promise<ActRelay> {
  const common = {
    linger: o.lingerMs,
    heartbeatInterval: 1000,
    heartbeatTimeout: 5000,
    heartbeatTimeToLive: 5000,
    ...curveOptions(o.curve, true),
  };
  const proxy = new zmq.Proxy(new zmq.Router(common), new zmq.Dealer(common));
  await proxy.frontEnd.bind(relay.front);
  await proxy.backEnd.bind(relay.back);
  let closed = false;
  proxy.run().catch((error: Error) => {
    if (!closed) o.onError(error);
  });
  return {
    close() {
      if (closed) return;
      closed = true;
      try {
        proxy.terminate();
      } catch {
        // not running (it failed already)
      }
    },
  };
}
