// A remote worker's proof that it holds the secret key of the credential it names. ZAP lets in any
// allow-listed key but zeromq.js does not tell the receiver which key a message came over, so a
// worker's `register` names its key id and carries HMAC-SHA256(X25519(its secret, the server's
// public key), what it claims). The supervisor computes the same secret from its own secret and the
// allow-listed public key of that id. The control traffic is CURVE-encrypted, so no one else sees
// a proof to replay it.
import { createHmac, createPrivateKey, createPublicKey, diffieHellman, timingSafeEqual } from 'node:crypto';
import { z85Decode } from './z85.js';

// DER prefixes that wrap a raw 32-byte X25519 key (RFC 8410) so node's crypto takes it.
const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_X25519 = Buffer.from('302a300506032b656e032100', 'hex');

/** X25519 of one side's secret and the other's public key (both Z85): the same on both ends. */
export function sharedSecret(secretZ85: string, publicZ85: string): Buffer {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_X25519, z85Decode(secretZ85)]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey({
    key: Buffer.concat([SPKI_X25519, z85Decode(publicZ85)]),
    format: 'der',
    type: 'spki',
  });
  return diffieHellman({ privateKey, publicKey });
}

const claim = (keyId: string, role: string, hostname: string, pid: number) =>
  `tti-register\0${keyId}\0${role}\0${hostname}\0${pid}`;

/** On the worker: its secret key and the server's public key. */
export function registerProof(
  keys: { secretKey: string; serverPublic: string },
  keyId: string,
  role: string,
  hostname: string,
  pid: number,
): string {
  return createHmac('sha256', sharedSecret(keys.secretKey, keys.serverPublic))
    .update(claim(keyId, role, hostname, pid))
    .digest('hex');
}

/** On the supervisor: its secret key and the allow-listed public key of `keyId`. */
export function checkRegisterProof(
  keys: { serverSecret: string; clientPublic: string },
  proof: string,
  keyId: string,
  role: string,
  hostname: string,
  pid: number,
): boolean {
  const expected = createHmac('sha256', sharedSecret(keys.serverSecret, keys.clientPublic))
    .update(claim(keyId, role, hostname, pid))
    .digest();
  const given = Buffer.from(proof, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
