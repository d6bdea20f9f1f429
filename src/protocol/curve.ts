// ZeroMQ CURVE for a run whose sockets are reachable from other machines. ipc:// sockets in the run
// directory and tcp:// on loopback are reachable only from this machine, and stay plain; a tcp://
// endpoint on any other interface (or any endpoint of a run that listens for remote workers) is
// encrypted with CURVE, keys generated into RUN_DIR/curve/keys.json (0600, in a 0700 folder).
// Every socket that binds is a CURVE server with the run's server key; every socket that connects
// is a client: local workers with the run's own client key pair, a remote worker with the key pair
// of its credential (src/run/credentials.ts). Each process that binds runs a ZAP handler
// (zap.ts) that lets in only the run's own key and allow-listed, unrevoked credentials whose role
// may connect to that socket (each server socket names itself as its ZAP domain).
// The key files belong to the run directory (src/run/); this is the wire side.
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

/**
 * What a process's sockets need: the server's public key and a client key pair; the server's
 * secret only in a process that binds (a remote worker never holds it). The run's key file is one.
 */
export interface CurveSocketKeys {
  serverPublic: string;
  serverSecret?: string;
  clientPublic: string;
  clientSecret: string;
}

/**
 * Socket options: a socket that binds is a CURVE server, one that connects its client.
 * `serverDomain` is a binding socket's ZAP domain (its name): ZAP hears it with each handshake, so
 * the run's gate can admit on each socket only the credentials whose role uses it. null: connects.
 */
export function curveOptions(keys: CurveSocketKeys | undefined, serverDomain: string | null): object {
  if (keys === undefined) return {};
  if (serverDomain !== null && keys.serverSecret === undefined)
    throw new Error("a socket that binds needs the run's server secret, which only the run directory holds");
  return serverDomain !== null
    ? {
        curveServer: true,
        curvePublicKey: keys.serverPublic,
        curveSecretKey: keys.serverSecret,
        zapDomain: serverDomain,
      }
    : {
        curveServerKey: keys.serverPublic,
        curvePublicKey: keys.clientPublic,
        curveSecretKey: keys.clientSecret,
      };
}
