// Whether a worker's message speaks for the worker it names. `register` is admitted by its proof
// (src/actors/supervisor/admission.ts); every later message that names a worker id (heartbeat, bye,
// task request, episode result, trajectory, act request, …) carries the key it speaks with
// (src/protocol/speaker-proof.ts), and only that worker's key may name it: a credential speaks for
// its own id, the run's own key for spawned workers. Anything else is dropped, counted and logged
// by key id (never a secret), rate-limited: a holder of one credential must not stop, feed or
// impersonate another worker. It lives here, beside the key gate, because every process that binds
// a CURVE socket checks the same way: the supervisor, replay and local inference workers.
import { type CurveSocketKeys, checkSpeakerTag, type SpeakerKey, sharedSecret } from '../protocol/index.js';
import type { AllowList } from './credentials.js';
import { LOCAL_KEY_ID } from './key-gate.js';

export interface SpeakerClaim {
  workerId: string;
  key?: SpeakerKey | undefined;
}

export type SpeakerVerdict = { ok: true } | { ok: false; keyId: string | null; reason: string };

export interface SpeakerContext {
  /** the run's keys; null (or no server secret): a run without CURVE, where only this machine speaks */
  keys: CurveSocketKeys | null;
  allowList: AllowList;
  /** X25519 of the server's secret and a client's public key (cached by the caller) */
  shared(clientPublic: string): Buffer;
}

export function checkSpeaker(claim: SpeakerClaim, ctx: SpeakerContext): SpeakerVerdict {
  const keys = ctx.keys;
  if (keys === null || keys.serverSecret === undefined) return { ok: true };
  const key = claim.key;
  if (key === undefined)
    return { ok: false, keyId: null, reason: `a message for ${claim.workerId} names no key` };
  const entry = key.id === LOCAL_KEY_ID ? null : ctx.allowList.keys.find((k) => k.id === key.id);
  if (entry === undefined)
    return { ok: false, keyId: key.id, reason: `key ${key.id} is not in this run (for ${claim.workerId})` };
  if (entry !== null && entry.revokedAt !== null)
    return { ok: false, keyId: key.id, reason: `key ${key.id} was revoked at ${entry.revokedAt}` };
  const publicKey = entry === null ? keys.clientPublic : entry.publicKey;
  if (!checkSpeakerTag(ctx.shared(publicKey), key.tag, key.id, claim.workerId))
    return {
      ok: false,
      keyId: key.id,
      reason: `a message for ${claim.workerId} does not prove key ${key.id}`,
    };
  // A credential speaks for its own id only; the run's key for every id that is not a credential's.
  const owner = ctx.allowList.keys.some((k) => k.id === claim.workerId) ? claim.workerId : LOCAL_KEY_ID;
  if (owner !== key.id)
    return { ok: false, keyId: key.id, reason: `key ${key.id} spoke for ${claim.workerId}` };
  return { ok: true };
}

const LOG_EVERY_MS = 1000;

/** One process's check of the worker messages it receives, with its counts and log. */
export class SpeakerCheck {
  /** messages dropped so far */
  refused = 0;
  /** …by the key they came with ('none' for a message without one) */
  readonly byKey = new Map<string, number>();
  private readonly secrets = new Map<string, Buffer>();
  private lastLogAt = 0;
  private unlogged = 0;

  /** `keys`: null where this process cannot check (no CURVE, or no server secret): all pass */
  constructor(
    private readonly keys: CurveSocketKeys | null,
    private readonly allowList: () => AllowList,
    private readonly warn: (message: string) => void,
  ) {}

  /** True when `message` may be handled; otherwise it is counted and logged, and to be dropped. */
  speaks(message: SpeakerClaim, channel: string): boolean {
    const verdict = checkSpeaker(message, {
      keys: this.keys,
      allowList: this.allowList(),
      shared: (clientPublic) => this.shared(clientPublic),
    });
    if (verdict.ok) return true;
    this.refused += 1;
    const by = verdict.keyId ?? 'none';
    this.byKey.set(by, (this.byKey.get(by) ?? 0) + 1);
    // A flood from one bad key must not become a flood of log lines.
    const now = Date.now();
    if (now - this.lastLogAt >= LOG_EVERY_MS) {
      const more = this.unlogged > 0 ? ` (+${this.unlogged} more since the last report)` : '';
      this.warn(`dropped a message on ${channel}: ${verdict.reason}${more}`);
      this.lastLogAt = now;
      this.unlogged = 0;
    } else this.unlogged += 1;
    return false;
  }

  private shared(clientPublic: string): Buffer {
    let secret = this.secrets.get(clientPublic);
    if (secret === undefined) {
      secret = sharedSecret(this.keys?.serverSecret ?? '', clientPublic);
      this.secrets.set(clientPublic, secret);
    }
    return secret;
  }
}
