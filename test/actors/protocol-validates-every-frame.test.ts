import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pack } from 'msgpackr';
import { decode, encode, float32View, Inbound, PROTOCOL_VERSION } from '../../src/protocol/index.js';

test('a message round-trips with its raw tensor frames', () => {
  const tensor = Buffer.from(new Float32Array([1.5, -2, 3.25]).buffer);
  const frames = encode(
    { type: 'weights', policyVersion: 3, tensors: [{ name: 'w', dtype: 'float32', shape: [3] }] },
    [tensor],
  );
  const result = decode(Inbound.weightsToInference, frames);
  assert.ok(result.ok);
  assert.equal(result.value.message.policyVersion, 3);
  assert.deepEqual([...float32View(result.value.raw[0]!)], [1.5, -2, 3.25]);
});

test('float32View copies an unaligned frame instead of throwing', () => {
  const backing = Buffer.alloc(13);
  const unaligned = backing.subarray(1);
  for (let i = 0; i < 3; i++) unaligned.writeFloatLE(7, i * 4);
  assert.deepEqual([...float32View(unaligned)], [7, 7, 7]);
});

test('decode rejects, with a reason, what does not belong on the socket', () => {
  const cases: [string, Buffer[], RegExp][] = [
    ['empty', [Buffer.alloc(0)], /empty/],
    ['truncated msgpack', [Buffer.from([0x92, 0x01])], /not msgpack/],
    ['not a map', [pack([1, 2])], /not a map/],
    [
      'old version',
      [pack({ v: PROTOCOL_VERSION + 1, raw: [], body: { type: 'status_request' } })],
      /protocol version/,
    ],
    ['unknown type', [pack({ v: PROTOCOL_VERSION, raw: [], body: { type: 'nope' } })], /invalid 'nope'/],
    ['wrong socket', encode({ type: 'heartbeat_ack' }), /invalid 'heartbeat_ack'/],
    [
      'missing raw frame',
      [pack({ v: PROTOCOL_VERSION, raw: [4], body: { type: 'status_request' } })],
      /raw frames/,
    ],
    ['wrong field type', encode({ type: 'stop_request', token: 42 }), /invalid 'stop_request' at token/],
  ];
  for (const [name, frames, reason] of cases) {
    const result = decode(Inbound.statusToSupervisor, frames);
    assert.equal(result.ok, false, name);
    if (!result.ok) assert.match(result.reason, reason, name);
  }
});
