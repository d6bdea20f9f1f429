// The run's CURVE key file, RUN_DIR/curve/keys.json (0600, in a 0700 folder): created by the
// supervisor on first use, read by every process that connects to an off-loopback socket.
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as zmq from 'zeromq';
import { CurveKeys, needsCurve } from '../protocol/index.js';
import { writeFileAtomic } from './run-dir.js';

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

/**
 * The keys a process needs for sockets on `endpoint`: none on ipc or loopback, the run's otherwise;
 * `force`: the run's whatever the address (a run that listens for remote workers is CURVE throughout).
 */
export function curveFor(endpoint: string, runDir: string | null, force = false): CurveKeys | undefined {
  if (!force && !needsCurve(endpoint)) return undefined;
  if (runDir === null) throw new Error(`${endpoint} is off loopback: CURVE keys are needed, pass --run-dir`);
  return readCurveKeys(runDir);
}
