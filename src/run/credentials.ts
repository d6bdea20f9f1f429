// Credentials for workers that join a run from other machines. `tti-run credentials issue` makes one
// CURVE key pair per worker: the worker's file (its key pair and the run's server public key, 0600)
// goes to that machine, and its public key joins the run's allow-list, RUN_DIR/curve/allow.json
// (id, role, public key, issued, revoked). Each process that binds a CURVE socket checks every
// handshake against that list (key-gate.ts); `revoke` marks an entry, and a running supervisor
// that sees the file change drops the worker. The allow-list holds no secret.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import * as zmq from 'zeromq';
import { z } from 'zod';
import { ensureCurveKeys } from './curve-keys.js';
import { writeFileAtomic } from './run-dir.js';

/** The roles a worker on another machine may take: the ones that scale with hosts and GPUs. */
export const REMOTE_ROLES = ['env', 'inference'] as const;
export type RemoteRole = (typeof REMOTE_ROLES)[number];

const Z85Key = z.string().length(40, 'expected a 40-character Z85 CURVE key');

export const AllowEntry = z.strictObject({
  id: z.string().min(1),
  role: z.enum(REMOTE_ROLES),
  publicKey: Z85Key,
  issuedAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type AllowEntry = z.infer<typeof AllowEntry>;
export const AllowList = z.strictObject({ keys: z.array(AllowEntry) });
export type AllowList = z.infer<typeof AllowList>;

/** What a remote worker holds: its key pair, and the server's public key to know the run by. */
export const Credential = z.strictObject({
  kind: z.literal('tti-credential'),
  id: z.string().min(1),
  role: z.enum(REMOTE_ROLES),
  publicKey: Z85Key,
  secretKey: Z85Key,
  serverPublic: Z85Key,
});
export type Credential = z.infer<typeof Credential>;

export const allowListFile = (runDir: string) => path.join(runDir, 'curve', 'allow.json');

function describe(error: z.ZodError, file: string, json: unknown): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${file} does not validate`;
  const where = issue.path.map(String);
  // keys[3].publicKey → "entry 3 (id env-r3), field publicKey"
  if (where[0] === 'keys' && where.length >= 2) {
    const entry = (json as { keys: { id?: unknown }[] }).keys[Number(where[1])];
    const id = typeof entry?.id === 'string' ? ` (id ${entry.id})` : '';
    return `${file}: entry ${where[1]}${id}, field ${where.slice(2).join('.') || '(the entry)'}: ${issue.message}`;
  }
  return `${file}: field ${where.join('.') || '(top level)'}: ${issue.message}`;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} cannot be read as JSON: ${(error as Error).message}`);
  }
}

/** The run's allow-list; empty when none was issued. */
export function readAllowList(runDir: string): AllowList {
  const file = allowListFile(runDir);
  if (!existsSync(file)) return { keys: [] };
  const json = readJson(file);
  const parsed = AllowList.safeParse(json);
  if (!parsed.success) throw new Error(describe(parsed.error, file, json));
  return parsed.data;
}

function writeAllowList(runDir: string, list: AllowList): void {
  writeFileAtomic(allowListFile(runDir), `${JSON.stringify(list, null, 2)}\n`, 0o600);
}

const LOCK_WAIT_MS = 10_000;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `edit` holding RUN_DIR/curve/allow.json.lock (created exclusively, holding the editor's
 * pid): two `issue`s or an `issue` and a `revoke` at once would each rewrite the list from what
 * they read, and one edit would vanish. A lock whose pid is gone is taken over.
 */
export function withAllowListLock<T>(runDir: string, edit: () => T): T {
  const lock = `${allowListFile(runDir)}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(lock, 'utf8'));
      } catch {
        // released meanwhile
      }
      // A holder that died mid-edit (or one whose pid was not written yet: wait for it).
      if (Number.isInteger(holder) && holder > 0 && !pidAlive(holder)) rmSync(lock, { force: true });
      else if (Date.now() > deadline)
        throw new Error(
          `${lock} is held (pid ${holder}) for over ${LOCK_WAIT_MS} ms: another credentials edit`,
        );
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    try {
      return edit();
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

/** A new key pair for one worker of `role`: its allow-list entry is written, its file returned. */
export function issueCredential(runDir: string, role: RemoteRole, now = new Date()): Credential {
  // The run's server key exists from here on, so credentials can be issued before the run starts.
  const server = ensureCurveKeys(runDir);
  return withAllowListLock(runDir, () => addEntry(runDir, role, server.serverPublic, now));
}

function addEntry(runDir: string, role: RemoteRole, serverPublic: string, now: Date): Credential {
  const list = readAllowList(runDir);
  const taken = new Set(list.keys.map((k) => k.id));
  let n = list.keys.filter((k) => k.role === role).length;
  while (taken.has(`${role}-r${n}`)) n += 1;
  const pair = zmq.curveKeyPair();
  const entry: AllowEntry = {
    id: `${role}-r${n}`,
    role,
    publicKey: pair.publicKey,
    issuedAt: now.toISOString(),
    revokedAt: null,
  };
  writeAllowList(runDir, { keys: [...list.keys, entry] });
  return {
    kind: 'tti-credential',
    id: entry.id,
    role,
    publicKey: pair.publicKey,
    secretKey: pair.secretKey,
    serverPublic,
  };
}

/** Marks `id` revoked; a running supervisor drops that worker and every binder refuses its key. */
export function revokeCredential(runDir: string, id: string, now = new Date()): AllowEntry {
  return withAllowListLock(runDir, () => revokeEntry(runDir, id, now));
}

function revokeEntry(runDir: string, id: string, now: Date): AllowEntry {
  const list = readAllowList(runDir);
  const entry = list.keys.find((k) => k.id === id);
  if (entry === undefined) {
    const known = list.keys.map((k) => k.id).join(', ') || 'none';
    throw new Error(`${allowListFile(runDir)} has no key '${id}' (ids: ${known})`);
  }
  if (entry.revokedAt !== null) throw new Error(`key '${id}' was revoked already, at ${entry.revokedAt}`);
  const revoked = { ...entry, revokedAt: now.toISOString() };
  writeAllowList(runDir, { keys: list.keys.map((k) => (k.id === id ? revoked : k)) });
  return revoked;
}

export function writeCredential(file: string, credential: Credential): void {
  writeFileAtomic(file, `${JSON.stringify(credential, null, 2)}\n`, 0o600);
}

export function readCredential(file: string): Credential {
  const json = readJson(file);
  const parsed = Credential.safeParse(json);
  if (!parsed.success) throw new Error(`not a tti credential: ${describe(parsed.error, file, json)}`);
  return parsed.data;
}

/** A public key as logs may show it: a prefix, enough to tell keys apart. */
export const keyPrefix = (publicKey: string) => `${publicKey.slice(0, 8)}…`;
