// ZeroMQ CURVE for a run whose sockets are reachable from other machines. ipc:// sockets in the run
// directory and tcp:// on loopback are reachable only from this machine, and stay plain; a tcp://
// endpoint on any other interface is encrypted with CURVE, keys generated into
// RUN_DIR/curve/keys.json (0600, in a 0700 folder). Every socket that binds is a CURVE server
// with the run's server key; every socket that connects must know the server's public key, which
// only the run directory holds, so a peer without the file cannot complete the handshake. (A
// ZAP handler that also checks client keys is not installed: the run has one client key pair.)
// The key file itself belongs to the run directory (src/run/curve-keys.ts); this is the wire side.
import { z } from 'zod';

export const CurveKeys = z.object({
  serverPublic: z.string().length(40),
  serverSecret: z.string().length(40),
  clientPublic: z.string().length(40),
  clientSecret: z.string().length(40),
});
export type CurveKeys = z.infer<typeof CurveKeys>;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** True for a tcp:// endpoint whose host is not loopback (ipc:// and loopback need no CURVE). */
export function needsCurve(endpoint: string): boolean {
  const match = /^tcp:\/\/(\[[^\]]+\]|[^:]+):/.exec(endpoint);
  return match !== null && !LOOPBACK.test(match[1] ?? '');
}

/** Socket options: binding kinds are CURVE servers, connecting kinds CURVE clients of the run's server. */
export function curveOptions(keys: CurveKeys | undefined, binds: boolean): object {
  if (keys === undefined) return {};
  return binds
    ? { curveServer: true, curvePublicKey: keys.serverPublic, curveSecretKey: keys.serverSecret }
    : {
        curveServerKey: keys.serverPublic,
        curvePublicKey: keys.clientPublic,
        curveSecretKey: keys.clientSecret,
      };
}
