// What a test that stands in for a remote worker needs to speak on a listening run's act sockets:
// a credential's socket tuning (CURVE client with its key pair), its key tag, and an act request.
import { speakerSignature } from '../../src/actors/roles/remote-join.js';
import type { SocketTuning, SpeakerKey } from '../../src/protocol/index.js';
import type { Credential } from '../../src/run/index.js';

export const tuningOf = (c: Credential): SocketTuning => ({
  lingerMs: 0,
  heartbeatIntervalMs: 1000,
  heartbeatTimeoutMs: 5000,
  curve: { serverPublic: c.serverPublic, clientPublic: c.publicKey, clientSecret: c.secretKey },
});

/** The key tag a credential's holder puts on messages for `workerId` (its own id, by default). */
export const keyOf = (c: Credential, workerId: string = c.id): SpeakerKey | undefined =>
  speakerSignature({ endpoint: 'tcp://127.0.0.1:1', credential: c }, undefined, workerId).key;

/** A small, valid tfjs act request for step 0 of `episodeId`, in `workerId`'s name. */
export const actRequest = (workerId: string, key: SpeakerKey | undefined, episodeId: string) => ({
  type: 'act_request',
  policy: 'tfjs',
  workerId,
  ...(key ? { key } : {}),
  episodeId,
  step: 0,
  horizon: 10,
  intent: 'What is the price of the Blue Mug?',
  observation: {
    text: "[1] RootWebArea 'Blue Mug'\n\t[2] StaticText '$12.50'",
    url: 'http://127.0.0.1/shop/product/blue-mug',
    nodes: {
      ids: [1, 2],
      roles: ['RootWebArea', 'StaticText'],
      names: ['Blue Mug', '$12.50'],
      depths: [0, 1],
      inViewport: [1, 1],
    },
    note: null,
    screenshotFrame: null,
  },
  history: [],
  trail: [],
  greedy: true,
  temperature: 1,
});
