// The run's gate on its CURVE sockets: a ZAP handler (src/protocol/zap.ts) that lets in the run's
// own client key (local workers, the CLI) and allow-listed, unrevoked credentials on the sockets
// their role uses (socket-roles.ts), and refuses every other key, counting and reporting each
// refusal with the key's id or prefix and the socket. It follows the allow-list file, so an issue
// or revoke takes effect at the next handshake without a restart.
import { unwatchFile, watchFile } from 'node:fs';
import {
  type CurveSocketKeys,
  cutBoundConnections,
  startZap,
  type ZapHandler,
  type ZapRequest,
  type ZapVerdict,
} from '../protocol/index.js';
import { type AllowEntry, type AllowList, allowListFile, keyPrefix, readAllowList } from './credentials.js';
import { rolesAllowedOn } from './socket-roles.js';

export const LOCAL_KEY_ID = 'local';
const WATCH_INTERVAL_MS = 250;

/**
 * Decides on one client key, connecting to the socket whose ZAP domain is `domain`, against the
 * run's own key (admitted everywhere) and an allow-list (each key where its role may connect).
 */
export function checkKey(
  list: AllowList,
  local: CurveSocketKeys,
  publicKey: string,
  domain: string,
): ZapVerdict {
  if (publicKey === local.clientPublic) return { ok: true, userId: LOCAL_KEY_ID };
  const entry = list.keys.find((k) => k.publicKey === publicKey);
  if (entry === undefined) return { ok: false, reason: `unknown key ${keyPrefix(publicKey)}` };
  if (entry.revokedAt !== null)
    return {
      ok: false,
      reason: `key ${entry.id} (${keyPrefix(publicKey)}) was revoked at ${entry.revokedAt}`,
    };
  const allowed = rolesAllowedOn(domain);
  if (!allowed.includes(entry.role))
    return {
      ok: false,
      reason: `key ${entry.id} (${keyPrefix(publicKey)}) is for an ${entry.role} worker; this socket takes ${allowed.length > 0 ? `${allowed.join(' and ')} workers' keys only` : "only the run's own key"}`,
    };
  return { ok: true, userId: entry.id };
}

export interface KeyGate {
  /** handshakes refused so far */
  readonly refused: number;
  /** the allow-list as last read */
  readonly list: AllowList;
  /** called with entries revoked since the list was last read */
  onRevoked(listener: (entries: AllowEntry[]) => void): void;
  close(): void;
}

/** Starts this process's ZAP handler for the run in `runDir`. */
export async function startKeyGate(
  runDir: string,
  local: CurveSocketKeys,
  warn: (message: string) => void,
): Promise<KeyGate> {
  const file = allowListFile(runDir);
  let list = readAllowList(runDir);
  const listeners: ((entries: AllowEntry[]) => void)[] = [];
  const reload = (): void => {
    let next: AllowList;
    try {
      next = readAllowList(runDir);
    } catch (error) {
      // A broken file keeps the last good list: refusing everyone would stop a healthy run.
      warn(`the allow-list did not reload, the last good one stays: ${(error as Error).message}`);
      return;
    }
    const before = new Map(list.keys.map((k) => [k.id, k]));
    const revoked = next.keys.filter((k) => k.revokedAt !== null && before.get(k.id)?.revokedAt === null);
    list = next;
    if (revoked.length === 0) return;
    for (const listener of listeners) listener(revoked);
    // A revoked key's live connection outlasts the list: cut every connection here, so that each
    // peer's redial meets the gate again (and the revoked one is refused).
    void cutBoundConnections().then(({ cut, failed }) => {
      const ids = revoked.map((k) => k.id).join(', ');
      if (cut.length > 0)
        warn(`revoked ${ids}: cut the connections on ${cut.join(', ')}; peers with valid keys redial`);
      if (failed.length > 0) warn(`revoked ${ids}: these sockets did not bind again: ${failed.join('; ')}`);
    });
  };
  watchFile(file, { interval: WATCH_INTERVAL_MS, persistent: false }, reload);
  const onRefused = (request: ZapRequest, reason: string): void =>
    warn(
      `refused a connection from ${request.address || 'an unknown address'}: ${reason} (socket ${request.domain || 'without a ZAP domain'})`,
    );
  let zap: ZapHandler;
  try {
    zap = await startZap(
      (request) => checkKey(list, local, request.publicKey ?? '', request.domain),
      onRefused,
    );
  } catch (error) {
    unwatchFile(file, reload);
    throw error;
  }
  return {
    get refused() {
      return zap.refused;
    },
    get list() {
      return list;
    },
    onRevoked: (listener) => listeners.push(listener),
    close: () => {
      unwatchFile(file, reload);
      zap.close();
    },
  };
}
