// What a worker that joins from another machine (`tti-run worker --join`) does differently from a
// spawned one: its identity and CURVE keys come from its credential file, its `register` carries a
// proof that it holds that key (and every later message names that key), and the endpoints the supervisor hands it are reached through the
// address it joined (the supervisor may listen on 0.0.0.0, or behind a Service or a NAT).
import {
  type CurveSocketKeys,
  type Endpoints,
  type Role,
  registerProof,
  type SpeakerKey,
  speakerKey,
} from '../../protocol/index.js';
import { type Credential, LOCAL_KEY_ID, readCredential } from '../../run/index.js';

export interface Join {
  /** tcp://HOST:PORT, the supervisor's control socket */
  endpoint: string;
  credential: Credential;
}

const TCP = /^tcp:\/\/(\[[^\]]+\]|[^:/]+):(\d+)$/;

/** Reads and checks `--join` and `--credentials`; errors name the file and what is wrong. */
export function readJoin(endpoint: string, credentialFile: string, role: Role): Join {
  if (!TCP.test(endpoint)) throw new Error(`--join ${endpoint}: expected tcp://HOST:PORT`);
  const credential = readCredential(credentialFile);
  if (credential.role !== role)
    throw new Error(`${credentialFile} is a credential for a ${credential.role} worker, not ${role}`);
  return { endpoint, credential };
}

export function joinKeys(join: Join): CurveSocketKeys {
  return {
    serverPublic: join.credential.serverPublic,
    clientPublic: join.credential.publicKey,
    clientSecret: join.credential.secretKey,
  };
}

export function joinRegistration(join: Join, hostname: string) {
  const { id, role } = join.credential;
  return {
    credential: {
      keyId: id,
      proof: registerProof(
        { secretKey: join.credential.secretKey, serverPublic: join.credential.serverPublic },
        id,
        role,
        hostname,
        process.pid,
      ),
    },
  };
}

/** A spawned worker of a CURVE run proves it holds the run's own client key (it never leaves the machine). */
export function localRegistration(keys: CurveSocketKeys, role: Role, hostname: string) {
  const proof = registerProof(
    { secretKey: keys.clientSecret, serverPublic: keys.serverPublic },
    LOCAL_KEY_ID,
    role,
    hostname,
    process.pid,
  );
  return { credential: { keyId: LOCAL_KEY_ID, proof } };
}

/**
 * The key every later message of this worker carries (src/protocol/speaker-proof.ts): its
 * credential's when it joined, the run's own for a spawned worker of a CURVE run, none without CURVE.
 */
export function speakerSignature(
  join: Join | null,
  keys: CurveSocketKeys | undefined,
  workerId: string,
): { key?: SpeakerKey } {
  if (join !== null) {
    const { id, secretKey, serverPublic } = join.credential;
    return { key: speakerKey({ secretKey, serverPublic }, id, workerId) };
  }
  if (keys === undefined) return {};
  return {
    key: speakerKey(
      { secretKey: keys.clientSecret, serverPublic: keys.serverPublic },
      LOCAL_KEY_ID,
      workerId,
    ),
  };
}

/** The same endpoint through the host this worker joined: tcp://0.0.0.0:5557 → tcp://sup:5557. */
export function rehost(endpoint: string, join: Join): string {
  const host = TCP.exec(join.endpoint)?.[1];
  const match = TCP.exec(endpoint);
  return host === undefined || match === null ? endpoint : `tcp://${host}:${match[2]}`;
}

export function rehostAll(act: Record<string, string>, join: Join): Record<string, string> {
  return Object.fromEntries(Object.entries(act).map(([id, e]) => [id, rehost(e, join)]));
}

export function rehostEndpoints(endpoints: Endpoints, join: Join): Endpoints {
  const at = (e: string) => rehost(e, join);
  return {
    ...endpoints,
    control: at(endpoints.control),
    tasks: at(endpoints.tasks),
    status: at(endpoints.status),
    events: at(endpoints.events),
    trajectories: at(endpoints.trajectories),
    samples: at(endpoints.samples),
    weights: at(endpoints.weights),
    act: rehostAll(endpoints.act, join),
    probe: rehostAll(endpoints.probe, join),
    ...(endpoints.relay
      ? { relay: { front: at(endpoints.relay.front), back: at(endpoints.relay.back) } }
      : {}),
  };
}
