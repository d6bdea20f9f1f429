// Which key a worker's message speaks with. ZAP admits a connection by its key, but zeromq.js (6.x)
// has no zmq_msg_gets, so a receiver cannot read the connection's User-Id (zeromq/zeromq.js#327).
// Instead every message that names a worker id carries `key: { id, tag }`: the id of the key its
// sender holds and HMAC-SHA256(X25519(that key's secret, the server's public key), key id + worker
// id). Only the key's holder and the run's binders can make it, and it travels CURVE-encrypted, so
// a holder of one credential cannot make another's. The tag is the same for every message of a
// worker: it is computed once.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sharedSecret } from './register-proof.js';

export interface SpeakerKey {
  /** the key's id: a credential's id, or the run's own key ('local') for spawned workers */
  id: string;
  tag: string;
}

const said = (keyId: string, workerId: string) => `tti-speaks-for\0${keyId}\0${workerId}`;

/** A tag from the X25519 secret both ends share (sharedSecret of one's secret, the other's public). */
export function speakerTag(shared: Buffer, keyId: string, workerId: string): string {
  return createHmac('sha256', shared).update(said(keyId, workerId)).digest('hex');
}

/** On the worker: its secret key and the server's public key. */
export function speakerKey(
  keys: { secretKey: string; serverPublic: string },
  keyId: string,
  workerId: string,
): SpeakerKey {
  return { id: keyId, tag: speakerTag(sharedSecret(keys.secretKey, keys.serverPublic), keyId, workerId) };
}

// A binder checks the same few tags on every message (bench/supervisor.bench.ts: an HMAC per message
// was 7% of the supervisor's CPU): each shared secret keeps the tags it expects, a bounded few.
const expectedTags = new WeakMap<Buffer, Map<string, Buffer>>();
const EXPECTED_TAGS_PER_KEY = 1024;

function expectedTag(shared: Buffer, keyId: string, workerId: string): Buffer {
  let tags = expectedTags.get(shared);
  if (tags === undefined) {
    tags = new Map();
    expectedTags.set(shared, tags);
  }
  const at = said(keyId, workerId);
  let tag = tags.get(at);
  if (tag === undefined) {
    // A key that claims ever new worker ids must not grow this without bound.
    if (tags.size >= EXPECTED_TAGS_PER_KEY) tags.clear();
    tag = Buffer.from(speakerTag(shared, keyId, workerId), 'hex');
    tags.set(at, tag);
  }
  return tag;
}

/** On a binder: does `tag` prove `keyId`'s secret for `workerId`? `shared`: its secret with that key's public. */
export function checkSpeakerTag(shared: Buffer, tag: string, keyId: string, workerId: string): boolean {
  const expected = expectedTag(shared, keyId, workerId);
  const given = Buffer.from(tag, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
