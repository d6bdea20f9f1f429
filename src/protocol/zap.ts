// A ZAP handler (ZeroMQ RFC 27) for a process's CURVE server sockets. libzmq asks the socket bound
// at inproc://zeromq.zap.01 in the same context about every CURVE handshake; with no handler there,
// CURVE checks only that the client knows the server's public key. zeromq.js has no handler of its
// own, so this one answers: 200 for a client key `authenticate` accepts, 400 otherwise. The handler
// is per process (one inproc name per context): the first `startZap` wins, a second one throws.
import * as zmq from 'zeromq';
import { z85Encode } from './z85.js';

export const ZAP_ENDPOINT = 'inproc://zeromq.zap.01';

export interface ZapRequest {
  /**
   * the ZAP domain of the server socket the client is connecting to (its `zapDomain` option, set
   * to the socket's name by curveOptions); empty for a socket that set none
   */
  domain: string;
  /** the peer's address as libzmq reports it (an IP, no port) */
  address: string;
  mechanism: string;
  /** the client's CURVE public key, Z85; null for other mechanisms */
  publicKey: string | null;
}

export type ZapVerdict = { ok: true; userId: string } | { ok: false; reason: string };

export interface ZapHandler {
  /** connections refused so far */
  readonly refused: number;
  close(): void;
}

let running: ZapHandler | null = null;

/**
 * Starts this process's ZAP handler. `authenticate` decides; `onRefused` hears each refusal (with
 * the request, never a secret: a CURVE handshake carries only the client's public key).
 */
export async function startZap(
  authenticate: (request: ZapRequest) => ZapVerdict,
  onRefused: (request: ZapRequest, reason: string) => void,
): Promise<ZapHandler> {
  if (running !== null) throw new Error('this process already has a ZAP handler');
  const socket = new zmq.Reply({ linger: 0 });
  await socket.bind(ZAP_ENDPOINT);
  let refused = 0;
  const handler: ZapHandler = {
    get refused() {
      return refused;
    },
    close() {
      socket.close();
      if (running === handler) running = null;
    },
  };
  running = handler;
  void (async () => {
    for (;;) {
      let frames: Buffer[];
      try {
        frames = await socket.receive();
      } catch {
        return; // closed
      }
      // version, request id, domain, address, identity, mechanism, credentials…
      const [version, requestId, domain, address, , mechanism, credential] = frames;
      const request: ZapRequest = {
        domain: domain?.toString() ?? '',
        address: address?.toString() ?? '',
        mechanism: mechanism?.toString() ?? '',
        publicKey:
          mechanism?.toString() === 'CURVE' && credential?.length === 32 ? z85Encode(credential) : null,
      };
      let verdict: ZapVerdict;
      if (version?.toString() !== '1.0') verdict = { ok: false, reason: 'ZAP version is not 1.0' };
      else if (request.publicKey === null)
        verdict = { ok: false, reason: `mechanism ${request.mechanism} is not CURVE` };
      else {
        try {
          verdict = authenticate(request);
        } catch (error) {
          verdict = { ok: false, reason: `the check failed: ${(error as Error).message}` };
        }
      }
      if (!verdict.ok) {
        refused += 1;
        onRefused(request, verdict.reason);
      }
      const reply = verdict.ok
        ? ['1.0', requestId ?? '', '200', 'OK', verdict.userId, '']
        : ['1.0', requestId ?? '', '400', verdict.reason.slice(0, 255), '', ''];
      try {
        await socket.send(reply);
      } catch {
        return;
      }
    }
  })();
  return handler;
}
