// Who may register. In a run whose sockets take CURVE, ZAP has already let the connection in with
// some key the run knows; `register` then names the key it came with and proves it holds its secret
// (src/protocol/register-proof.ts). The run's own key admits its spawned workers (the pid check in
// worker-actor.ts follows); a credential admits one worker that joined from another machine, under
// its key id, in its role, while the run expects more of that role than have joined.
import type { Config } from '../../config/index.js';
import { type CurveSocketKeys, checkRegisterProof, type Role } from '../../protocol/index.js';
import { type AllowList, LOCAL_KEY_ID, REMOTE_ROLES, type RemoteRole } from '../../run/index.js';

export interface RegisterClaim {
  role: Role;
  workerId: string;
  pid: number;
  hostname: string;
  credential?: { keyId: string; proof: string } | undefined;
}

export type Admission =
  | { kind: 'local' }
  | { kind: 'remote'; role: RemoteRole; id: string }
  | { kind: 'refused'; reason: string };

export interface AdmissionContext {
  config: Config;
  /** the run's keys when its sockets take CURVE; null for a run on ipc or loopback only */
  keys: CurveSocketKeys | null;
  allowList: AllowList;
  /** remote workers of a role known to the run (joined at least once) */
  joined(role: RemoteRole): ReadonlySet<string>;
}

export function admit(claim: RegisterClaim, ctx: AdmissionContext): Admission {
  const credential = claim.credential;
  const keys = ctx.keys;
  if (keys === null || keys.serverSecret === undefined) {
    // No CURVE: only this machine can reach the run, and only spawned workers belong to it.
    return credential === undefined || credential.keyId === LOCAL_KEY_ID
      ? { kind: 'local' }
      : { kind: 'refused', reason: 'this run does not listen for remote workers (train --listen)' };
  }
  const proven = (clientPublic: string, keyId: string) =>
    credential !== undefined &&
    checkRegisterProof(
      { serverSecret: keys.serverSecret as string, clientPublic },
      credential.proof,
      keyId,
      claim.role,
      claim.hostname,
      claim.pid,
    );
  if (credential === undefined || credential.keyId === LOCAL_KEY_ID) {
    // A spawned worker proves it holds the run's own client key, which never leaves this machine.
    return proven(keys.clientPublic, LOCAL_KEY_ID)
      ? { kind: 'local' }
      : { kind: 'refused', reason: `${claim.workerId}: no proof of the run's own key` };
  }
  const entry = ctx.allowList.keys.find((k) => k.id === credential.keyId);
  if (entry === undefined)
    return { kind: 'refused', reason: `no credential '${credential.keyId}' in this run` };
  if (entry.revokedAt !== null)
    return { kind: 'refused', reason: `credential ${entry.id} was revoked at ${entry.revokedAt}` };
  if (claim.workerId !== entry.id)
    return {
      kind: 'refused',
      reason: `credential ${entry.id} registers as ${entry.id}, not ${claim.workerId}`,
    };
  if (!(REMOTE_ROLES as readonly string[]).includes(claim.role) || claim.role !== entry.role)
    return {
      kind: 'refused',
      reason: `credential ${entry.id} is for a ${entry.role} worker, not ${claim.role}`,
    };
  if (!proven(entry.publicKey, entry.id))
    return { kind: 'refused', reason: `${entry.id}: the proof does not match its key` };
  const joined = ctx.joined(entry.role);
  const expected = ctx.config.remote[entry.role];
  if (!joined.has(entry.id) && joined.size >= expected)
    return {
      kind: 'refused',
      reason: `the run expects ${expected} remote ${entry.role} worker(s) (remote.${entry.role}) and has them: ${[...joined].join(', ') || 'none'}`,
    };
  return { kind: 'remote', role: entry.role, id: entry.id };
}
