// The fast checks (src/protocol/validate.ts) stand in for zod on the hot sockets. They must never
// accept what zod would refuse, nor accept a message zod would change (strip, default, transform):
// checked here by fuzzing valid messages of every socket — each field deleted, retyped, each column
// element retyped, columns cut short, unknown keys added, and seeded random mutations — against zod.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pack, unpack } from 'msgpackr';
import { z } from 'zod';
import { decode, encode, Inbound, PROTOCOL_VERSION } from '../../src/protocol/index.js';
import { fastCheck } from '../../src/protocol/validate.js';
import { SeededRandom } from '../../src/util/random.js';

type Json = null | boolean | number | string | undefined | Json[] | { [key: string]: Json };

/** An observation; `flags` adds the optional columns (clickable … h), as today's env sends them. */
const observation = (nodes: number, flags = true) => {
  const column = <T>(f: (i: number) => T) => Array.from({ length: nodes }, (_, i) => f(i));
  return {
    text: 'Tab 0 (current): Search\n\t[1000] link Item 0',
    url: 'http://127.0.0.1:7770/',
    nodes: {
      ids: column((i) => 1000 + i),
      roles: column((i) => (i % 2 ? 'link' : 'button')),
      names: column((i) => (i % 3 ? '' : `Item ${i}`)),
      depths: column((i) => i % 6),
      inViewport: column((i) => (i < 3 ? 1 : 0)),
      ...(flags
        ? {
            clickable: column((i) => i % 2),
            focusable: column((i) => (i % 3 ? 0 : 1)),
            editable: column(() => 0),
            visible: column((i) => (i < 3 ? 1 : 0)),
            states: column((i) => (i === 0 ? 'focused' : i === 4 ? 'checked required' : '')),
            x: column((i) => 10 * i),
            y: column((i) => 20 * i),
            w: column(() => 80),
            h: column(() => 16),
          }
        : {}),
    },
    note: null,
    screenshotFrame: null,
  };
};

const actRequest = {
  type: 'act_request',
  policy: 'tfjs',
  workerId: 'env-0',
  key: { id: 'local', tag: 'a1b2' },
  episodeId: 'e1',
  step: 2,
  horizon: 30,
  intent: 'Find the cheapest espresso machine',
  observation: observation(8),
  history: ['click [1003]', 'scroll [down]'],
  trail: [{ url: 'http://127.0.0.1/', action: "click [link 'Home']" }],
  greedy: false,
  temperature: 1,
  offers: { stop: false },
};

/** The same step asked of a chat policy: its context instead of the trainable policy's trail. */
const chatActRequest = {
  ...Object.fromEntries(Object.entries(actRequest).filter(([k]) => k !== 'trail')),
  policy: 'chat',
  site: 'shopping',
  replies: ['Thought: the list.\nAction: click [1003]', 'Thought: further down.\nAction: scroll [down]'],
  screenshots: [{ step: 2, frame: 0 }],
};

const trajectory = {
  type: 'trajectory',
  episodeId: 'e1',
  taskId: 't1',
  site: 'shop',
  intent: 'Find it',
  horizon: 10,
  iteration: 0,
  reward: 1,
  rawReward: 0.5,
  discountedReward: 0.42,
  offers: { stop: false },
  answer: null,
  steps: [
    {
      observation: 'text',
      url: 'http://127.0.0.1:7770/',
      nodes: observation(4, false).nodes,
      note: 'a note',
      reply: 'Action: stop [x]',
      action: 'stop [x]',
      policyVersion: 3,
    },
  ],
};

/** Valid messages for every socket, at least one per message type the fast checks cover. */
const SAMPLES: [keyof typeof Inbound, Json][] = [
  ['actToInference', actRequest],
  ['actToInference', chatActRequest],
  [
    'actToEnv',
    { type: 'act_reply', episodeId: 'e1', step: 2, reply: 'Action: click [1003]', policyVersion: 0 },
  ],
  ['trajectoriesToReplay', { ...trajectory, workerId: 'env-0', key: { id: 'local', tag: 'a1b2' } }],
  ['trajectoriesToEnv', { type: 'trajectory_ack', episodeId: 'e1', kept: true, duplicate: false }],
  ['samplesToReplay', { type: 'sample_request', maxTrajectories: 64, seed: 7 }],
  ['samplesToLearner', { type: 'sample_batch', trajectories: [trajectory] }],
  [
    'weightsToInference',
    { type: 'weights', policyVersion: 4, tensors: [{ name: 'w0', dtype: 'float32', shape: [2, 3] }] },
  ],
  ['tasksToSupervisor', { type: 'task_request', workerId: 'env-0', requestId: 7 }],
  [
    'tasksToSupervisor',
    {
      type: 'episode_result',
      workerId: 'env-0',
      requestId: 7,
      episodeId: 'e1',
      taskFile: 'tasks/a.jsonl',
      taskId: 't1',
      split: 'train',
      iteration: 1,
      reward: 0,
      steps: 3,
      answer: 'N/A',
      endReason: 'stop',
      kept: false,
      policyVersions: [1, 1, 2],
      durationMs: 1234.5,
      extras: [
        { strategy: 'search', name: 'rollouts', value: 3 },
        { strategy: 'search', name: 'bestValue', value: null },
      ],
    },
  ],
  [
    'tasksToEnv',
    {
      type: 'task_assignment',
      requestId: 7,
      episodeId: 'e1',
      taskFile: 'tasks/a.jsonl',
      taskId: 't1',
      horizon: 10,
      minTry: 1,
      split: 'test',
      iteration: 0,
      greedy: true,
      temperature: 1,
      seed: 7,
      toReplay: false,
    },
  ],
  ['tasksToEnv', { type: 'no_task', requestId: 7, retryAfterMs: 500 }],
  ['statusToSupervisor', { type: 'inject_fault', token: 'x', workerId: 'fault-0', fault: 'garbage' }],
  ['statusToSupervisor', { type: 'status_request' }],
  ['events', { type: 'run_event', at: 1, kind: 'restart', message: 'env-0 restarted' }],
];

/** Values of every msgpack type, and numbers at the edges of the protocol's checks. */
const WRONG: Json[] = [
  undefined,
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  'act_reply',
  [],
  [1, 'a'],
  {},
  { type: 'act_request' },
];

const clone = <T>(value: T): T => structuredClone(value);

/** Every path to a value inside `value` (object keys; first, middle and last array elements). */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    const picks = new Set([0, value.length >> 1, value.length - 1].filter((i) => i >= 0));
    for (const i of picks) out.push(...paths(value[i]!, [...prefix, i]));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) out.push(...paths(v, [...prefix, key]));
  }
  return out;
}

function parentOf(root: Json, path: (string | number)[]): Record<string | number, Json> {
  let node = root as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  return node;
}

/** Mutants of a valid message: each path deleted, set to each wrong value, arrays cut and grown. */
function* mutants(valid: Json): Generator<[string, Json]> {
  for (const path of paths(valid)) {
    const where = path.join('.') || '(root)';
    if (path.length === 0) {
      for (const wrong of WRONG) yield [`root = ${String(wrong)}`, wrong];
      continue;
    }
    const last = path[path.length - 1]!;
    const deleted = clone(valid);
    const parent = parentOf(deleted, path);
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    yield [`${where} deleted`, deleted];
    for (const wrong of WRONG) {
      const m = clone(valid);
      parentOf(m, path)[last] = wrong;
      yield [`${where} = ${JSON.stringify(wrong) ?? 'undefined'}`, m];
    }
    const target = parentOf(valid, path)[last];
    if (Array.isArray(target)) {
      const grown = clone(valid);
      (parentOf(grown, path)[last] as Json[]).push(clone(target[0] ?? 'x'));
      yield [`${where} grown by one`, grown];
    } else if (target !== null && typeof target === 'object') {
      const extra = clone(valid);
      (parentOf(extra, path)[last] as Record<string, Json>).unexpected = 1;
      yield [`${where} with an unknown key`, extra];
    }
  }
  const extra = clone(valid) as Record<string, Json>;
  extra.unexpected = 'x';
  yield ['root with an unknown key', extra];
}

/** Seeded random mutations: 1–3 changes at random paths, to reach combinations the sweep does not. */
function* randomMutants(valid: Json, random: SeededRandom, count: number): Generator<[string, Json]> {
  const all = paths(valid).filter((p) => p.length > 0);
  for (let n = 0; n < count; n++) {
    const m = clone(valid);
    const changes: string[] = [];
    const k = 1 + Math.floor(random.next() * 3);
    for (let j = 0; j < k; j++) {
      const path = all[Math.floor(random.next() * all.length)]!;
      const wrong = WRONG[Math.floor(random.next() * WRONG.length)];
      try {
        parentOf(m, path)[path[path.length - 1]!] = clone(wrong);
        changes.push(`${path.join('.')} = ${JSON.stringify(wrong)}`);
      } catch {
        // an earlier change replaced a parent with a primitive: nothing left to change there
      }
    }
    yield [changes.join(', '), m];
  }
}

/** Frames as a foreign sender would write them: the body packed as it is, no type in the way. */
const framesOf = (body: Json) => [pack({ v: PROTOCOL_VERSION, raw: [], body })];

test('every socket the fast checks cover: they accept only what zod returns unchanged', () => {
  const random = new SeededRandom(20261121);
  let compared = 0;
  let fastAccepted = 0;
  for (const [socket, valid] of SAMPLES) {
    const schema: z.ZodType = Inbound[socket];
    const check = fastCheck(schema);
    assert.ok(check, `${socket} has a fast check`);
    assert.ok(check(valid), `${socket}: a valid ${JSON.stringify(valid).slice(0, 40)} takes the fast path`);
    for (const [what, mutant] of [...mutants(valid), ...randomMutants(valid, random, 300)]) {
      // What arrives is what msgpack made of it (undefined → null inside arrays, and so on).
      const frames = framesOf(mutant);
      const body = (unpack(frames[0]!) as { body: Json }).body;
      const zod = schema.safeParse(body);
      if (check(body)) {
        fastAccepted += 1;
        assert.ok(zod.success, `${socket}, ${what}: fast check accepts what zod refuses`);
        assert.deepEqual(body, zod.data, `${socket}, ${what}: zod would have changed it`);
      }
      const decoded = decode(schema, frames);
      assert.equal(decoded.ok, zod.success, `${socket}, ${what}: decode and zod disagree`);
      if (decoded.ok && zod.success) assert.deepEqual(decoded.value.message, zod.data, `${socket}, ${what}`);
      compared += 1;
    }
  }
  assert.ok(compared > 3000, `${compared} mutants compared`);
  assert.ok(fastAccepted > 50, `${fastAccepted} mutants took the fast path`);
});

test('malformed observations are rejected with the field that is wrong', () => {
  const nodes = 300;
  const valid = { ...actRequest, observation: observation(nodes) };
  const withNodes = (change: (n: Record<string, Json[]>) => void) => {
    const m = clone(valid);
    change(m.observation.nodes as unknown as Record<string, Json[]>);
    return m;
  };
  const without = (path: string[]) => {
    const m = clone(valid) as unknown as Record<string, Json>;
    delete parentOf(m, path)[path[path.length - 1]!];
    return m;
  };
  const cases: [string, Json | object, RegExp][] = [
    [
      'a number among the roles',
      withNodes((n) => (n.roles![150] = 3)),
      /at observation\.nodes\.roles: expected an array of strings/,
    ],
    [
      'null among the names',
      withNodes((n) => (n.names![0] = null)),
      /at observation\.nodes\.names: expected an array of strings/,
    ],
    [
      'a string among the ids',
      withNodes((n) => (n.ids![299] = '1299')),
      /at observation\.nodes\.ids: expected an array of integers/,
    ],
    [
      'a fraction among the depths',
      withNodes((n) => (n.depths![7] = 1.5)),
      /at observation\.nodes\.depths: expected an array of integers/,
    ],
    [
      'a boolean among inViewport',
      withNodes((n) => (n.inViewport![1] = true)),
      /at observation\.nodes\.inViewport: expected an array of integers/,
    ],
    [
      'a 2 among the clickable flags',
      withNodes((n) => (n.clickable![9] = 2)),
      /at observation\.nodes\.clickable: expected an array of 0 and 1/,
    ],
    [
      'a number among the states',
      withNodes((n) => (n.states![3] = 1)),
      /at observation\.nodes\.states: expected an array of strings/,
    ],
    [
      'a fraction among the box widths',
      withNodes((n) => (n.w![2] = 80.5)),
      /at observation\.nodes\.w: expected an array of integers/,
    ],
    [
      'states one short',
      withNodes((n) => n.states!.pop()),
      /at observation\.nodes: node columns differ in length/,
    ],
    [
      'visible one long',
      withNodes((n) => n.visible!.push(0)),
      /at observation\.nodes: node columns differ in length/,
    ],
    ['an offer without its stop', { ...valid, offers: {} }, /at offers\.stop/],
    [
      'a column that is not an array',
      withNodes((n) => (n.roles = 'link' as unknown as Json[])),
      /at observation\.nodes\.roles/,
    ],
    [
      'names one short',
      withNodes((n) => n.names!.pop()),
      /at observation\.nodes: node columns differ in length/,
    ],
    [
      'ids one long',
      withNodes((n) => n.ids!.push(5)),
      /at observation\.nodes: node columns differ in length/,
    ],
    ['no history', without(['history']), /at history/],
    ['no node ids', without(['observation', 'nodes', 'ids']), /at observation\.nodes\.ids/],
    ['no observation', without(['observation']), /at observation/],
    ['no greedy', without(['greedy']), /at greedy/],
    ['a negative step', { ...valid, step: -1 }, /at step/],
    ['a zero horizon', { ...valid, horizon: 0 }, /at horizon/],
    ['a numeric intent', { ...valid, intent: 5 }, /at intent/],
    ['the wrong type', { ...valid, type: 'act_reply' }, /invalid 'act_reply' at type/],
  ];
  for (const [name, message, reason] of cases) {
    const result = decode(Inbound.actToInference, encode(message as object));
    assert.equal(result.ok, false, name);
    if (!result.ok) assert.match(result.reason, reason, name);
  }
  // An unknown key is dropped, as zod drops it: the message still arrives, without it.
  const extra = decode(Inbound.actToInference, encode({ ...valid, extra: 1 }));
  assert.ok(extra.ok);
  assert.equal('extra' in extra.value.message, false);
  const ok = decode(Inbound.actToInference, encode(valid));
  assert.ok(ok.ok);
  assert.equal(ok.value.message.observation.nodes.roles.length, nodes);
  // A sender from before the optional columns and the offer is still understood.
  const { offers: _, ...old } = { ...valid, observation: observation(nodes, false) };
  const before = decode(Inbound.actToInference, encode(old));
  assert.ok(before.ok);
  assert.equal(before.value.message.observation.nodes.clickable, undefined);
  assert.equal(before.value.message.offers, undefined);
});

test('the fast check knows each construct it compiles and declines the others', () => {
  // Small schemas over edge values: wherever the fast check says yes, zod says yes, unchanged.
  const values: unknown[] = [...WRONG, -0, 0.5, 1, 2, 128, 'ab', 'a'.repeat(129), ['a'], [1, 2], { a: 'x' }];
  const objects = values.flatMap((a) => [{ a }, { a, b: 1 }, { a, type: 'x' }, { type: 'y', a }]);
  const schemas: [string, z.ZodType][] = [
    ['int', z.number().int()],
    ['positive int', z.number().int().positive()],
    ['nonnegative', z.number().nonnegative()],
    ['bounded', z.number().gte(-1).lt(2)],
    ['int32', z.int32()],
    ['string 1..128', z.string().min(1).max(128)],
    ['literal', z.literal('x')],
    ['enum', z.enum(['x', 'y'])],
    ['nullable', z.string().nullable()],
    ['array', z.array(z.number()).min(1).max(2)],
    ['union', z.union([z.string(), z.number()])],
    ['optional field', z.object({ a: z.string().optional() })],
    ['unknown field', z.object({ a: z.unknown() })],
    ['strict object', z.strictObject({ a: z.string() })],
    ['refined object', z.object({ a: z.string() }).refine((o) => o.a.length > 1)],
    ['custom', z.custom<string>((v) => typeof v === 'string' && v.length === 1)],
    [
      'discriminated',
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('x'), a: z.number() }),
        z.object({ type: z.literal('y'), a: z.string() }),
      ]),
    ],
  ];
  for (const [name, schema] of schemas) {
    const check = fastCheck(schema);
    assert.ok(check, `${name} compiles`);
    let accepted = 0;
    for (const value of [...values, ...objects]) {
      const zod = schema.safeParse(value);
      if (!check(value)) continue;
      accepted += 1;
      assert.ok(zod.success, `${name}: ${JSON.stringify(value)} accepted, zod refuses`);
      assert.deepEqual(value, zod.data, `${name}: ${JSON.stringify(value)}`);
    }
    assert.ok(accepted > 0, `${name} accepts something`);
  }
  const declined: [string, z.ZodType][] = [
    ['a string format', z.email()],
    ['a record', z.record(z.string(), z.number())],
    ['a default', z.object({ a: z.string().default('x') })],
    ['a transform', z.string().transform((s) => s.length)],
    ['a loose object', z.looseObject({ a: z.string() })],
    ['an exclusive union', z.xor([z.string(), z.number()])],
    ['a multiple', z.number().multipleOf(2)],
    ['a coercion', z.coerce.number()],
    ['a regex', z.string().regex(/x/)],
  ];
  for (const [name, schema] of declined) assert.equal(fastCheck(schema), null, `${name} is left to zod`);
});
