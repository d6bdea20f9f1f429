import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { parseTtiReply } from '../../src/envs/actions/parse-tti.js';
import { loadBackend, seededRandom, TfjsPolicy } from '../../src/model/index.js';
import { input } from './fixtures.js';

before(async () => {
  await loadBackend('auto');
});

const inputs = () => [
  input(),
  input({ intent: 'Add Red Kettle to my cart', step: 2, history: ['Click [2]', 'GoBack'] }),
  input({ intent: 'How much is the Green Teapot?', nodes: input().nodes, note: 'Invalid action: x' }),
  input({ intent: 'Show me the second page', url: 'http://127.0.0.1/shop/p/2' }),
];

test('act scores a whole batch in one forward pass, with the same result as one input at a time', () => {
  const policy = TfjsPolicy.create({ seed: 3 });
  let forwards = 0;
  const original = policy.forward.bind(policy);
  policy.forward = (p, withValue) => {
    forwards += 1;
    return original(p, withValue);
  };
  const greedy = { greedy: true, temperature: 1, random: () => 0 };
  const together = policy.act(inputs(), greedy);
  assert.equal(forwards, 1);
  const alone = inputs().map((i) => policy.act([i], greedy)[0]!);
  assert.equal(forwards, 1 + inputs().length);
  assert.deepEqual(
    together.map((d) => d.action),
    alone.map((d) => d.action),
  );
  together.forEach((d, i) => {
    assert.ok(Math.abs(d.logProb - alone[i]!.logProb) < 1e-4);
  });
  policy.dispose();
});

test('replies are TTI replies whose action is the decision, among the counted candidates', () => {
  const policy = TfjsPolicy.create({ seed: 1 });
  for (const d of policy.act(inputs(), { greedy: false, temperature: 1, random: seededRandom(9) })) {
    assert.match(d.reply, /^Thought: .*\nAction: /);
    assert.notEqual(parseTtiReply(d.reply).type, 'none');
    assert.ok(d.reply.endsWith(`Action: ${d.action}`));
    assert.ok(d.candidates > 10);
    assert.ok(d.logProb <= 0);
  }
  policy.dispose();
});

test('greedy is deterministic; temperature sampling varies and follows the temperature', () => {
  const policy = TfjsPolicy.create({ seed: 2 });
  const one = [input()];
  const g1 = policy.act(one, { greedy: true, temperature: 1, random: Math.random })[0]!;
  const g2 = policy.act(one, { greedy: true, temperature: 1, random: Math.random })[0]!;
  assert.deepEqual(g1, g2);
  const random = seededRandom(5);
  const sampled = new Set<string>();
  for (let k = 0; k < 40; k++)
    sampled.add(policy.act(one, { greedy: false, temperature: 1, random })[0]!.action);
  assert.ok(sampled.size >= 5, `40 samples gave ${sampled.size} distinct actions`);
  // the same random stream gives the same samples
  const a = policy.act(one, { greedy: false, temperature: 1, random: seededRandom(11) })[0]!;
  const b = policy.act(one, { greedy: false, temperature: 1, random: seededRandom(11) })[0]!;
  assert.equal(a.action, b.action);
  // a near-zero temperature is greedy
  const cold = policy.act(one, { greedy: false, temperature: 1e-4, random: seededRandom(1) })[0]!;
  assert.equal(cold.action, g1.action);
  policy.dispose();
});

test('at init each action kind gets its fixed share of the prior, however many candidates it has', () => {
  const policy = TfjsPolicy.create({ seed: 4 });
  const many = input({ nodes: input().nodes, history: ['Click [2]'], step: 1 });
  const random = seededRandom(7);
  const kinds = new Map<string, number>();
  const n = 600;
  for (let k = 0; k < n; k++) {
    const a = policy.act([many], { greedy: false, temperature: 1, random })[0]!.action;
    const kind = /^(\w+)/.exec(a)![1]!;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  // the uniform prior gives each kind present the same share, while answers outnumber types
  // many to one (the network's score starts near zero)
  const present = ['Click', 'Type', 'ANSWER', 'GoBack', 'Scroll'];
  for (const kind of present) {
    const share = (kinds.get(kind) ?? 0) / n;
    assert.ok(
      Math.abs(share - 1 / present.length) < 0.07,
      `${kind}: ${share} (expected ${1 / present.length})`,
    );
  }
  policy.dispose();
});

test('an empty page still yields a valid answer, and a 3,000-node page is scored in one pass', () => {
  const policy = TfjsPolicy.create({ seed: 1 });
  const empty = input({ nodes: { ids: [], roles: [], names: [], depths: [], inViewport: [] } });
  const big = input({
    nodes: {
      ids: Array.from({ length: 3000 }, (_, i) => i + 1),
      roles: Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? 'link' : 'StaticText')),
      names: Array.from({ length: 3000 }, (_, i) => `Item ${i} ${'long text '.repeat(i % 50)}`),
      depths: Array.from({ length: 3000 }, (_, i) => 1 + (i % 4)),
      inViewport: Array.from({ length: 3000 }, (_, i) => (i < 100 ? 1 : 0)),
    },
  });
  const [a, b] = policy.act([empty, big], { greedy: false, temperature: 1, random: seededRandom(2) });
  assert.notEqual(parseTtiReply(a!.reply).type, 'none');
  assert.ok(a!.candidates >= 1);
  assert.notEqual(parseTtiReply(b!.reply).type, 'none');
  assert.ok(Number.isFinite(b!.logProb));
  policy.dispose();
});
