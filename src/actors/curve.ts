// ZeroMQ CURVE for a run whose sockets are reachable from other machines. ipc:// sockets in the run
// directory and tcp:// on loopback are reachable only from this machine, and stay plain; a tcp://
// endpoint on any other interface is encrypted with CURVE, keys generated into
// RUN_DIR/curve/keys.json (0600, in a 0700 folder). Every socket that binds is a CURVE server
// with the run's server key; every socket that connects must know the server's public key, which
// only the run directory holds, so a peer without the file cannot complete the handshake. (A
// ZAP handler that also checks client keys is not installed: the run has one client key pair.)
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as zmq from 'zeromq';
import { z } from 'zod';
import { writeFileAtomic } from '../run/run-dir.js';

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

export const curveKeysFile = (runDir: string) => path.join(runDir, 'curve', 'keys.json');

/** The run's keys, created on first use (0600); a run resumed keeps its keys. */
export function ensureCurveKeys(runDir: string): CurveKeys {
  const file = curveKeysFile(runDir);
  if (existsSync(file)) return readCurveKeys(runDir);
  const server = zmq.curveKeyPair();
  const client = zmq.curveKeyPair();
  const keys: CurveKeys = {
    serverPublic: server.publicKey,
    serverSecret: server.secretKey,
    clientPublic: client.publicKey,
    clientSecret: client.secretKey,
  };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(file), 0o700);
  // Created with its final mode: the secret is never readable by others, not even for a moment.
  writeFileAtomic(file, `${JSON.stringify(keys, null, 2)}\n`, 0o600);
  return keys;
}

export function readCurveKeys(runDir: string): CurveKeys {
  const file = curveKeysFile(runDir);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `this run's sockets are off loopback and need its CURVE keys, but ${file} cannot be read: ${(error as Error).message}`,
    );
  }
  const parsed = CurveKeys.safeParse(json);
  if (!parsed.success) throw new Error(`${file} is not a CURVE key file: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** The keys a process needs for sockets on `endpoint`: none on ipc or loopback, the run's otherwise. */
export function curveFor(endpoint: string, runDir: string | null): CurveKeys | undefined {
  if (!needsCurve(endpoint)) return undefined;
  if (runDir === null) throw new Error(`${endpoint} is off loopback: CURVE keys are needed, pass --run-dir`);
  return readCurveKeys(runDir);
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
