// WebArena-Verified's AgentResponseEvaluator on real tasks of the dataset, one of every
// results_schema type: each right answer, written in several formats, scores 1; each wrong one
// (a missing item, an extra item, the wrong status, a near-miss number, the wrong currency) scores 0.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  type AgentResponseEvaluatorConfig,
  derenderer,
  evaluateAgentResponse,
  type VerifiedTask,
  VerifiedTaskSchema,
} from '../../src/envs/index.js';
import { projectRoot } from '../../src/util/paths.js';

const file = path.join(projectRoot, '..', 'shared', 'data', 'webarena-verified', 'webarena-verified.json');
const tasks = new Map(
  (JSON.parse(readFileSync(file, 'utf8')) as unknown[]).map((raw) => {
    const t: VerifiedTask = VerifiedTaskSchema.parse(raw);
    return [t.task_id, t];
  }),
);

function configOf(id: number): AgentResponseEvaluatorConfig {
  const e = tasks.get(id)?.eval.find((x) => x.evaluator === 'AgentResponseEvaluator');
  assert.ok(e?.evaluator === 'AgentResponseEvaluator', `task ${id} has an AgentResponseEvaluator`);
  return e;
}

const hosts = new Map([['__GITLAB__', 'http://localhost:8023']]);
const derender = (s: string) => derenderer(hosts)(s).split('git@localhost:').join('git@__SSH_HOST__:');

function scoreOf(
  id: number,
  retrieved: unknown,
  extra: Record<string, unknown> = {},
): { score: number; why: string } {
  const c = configOf(id);
  const answer = {
    task_type: c.expected.task_type,
    status: c.expected.status,
    retrieved_data: retrieved,
    ...extra,
  };
  return evaluateAgentResponse(c, JSON.stringify(answer), derender);
}

function right(id: number, answers: unknown[]): void {
  for (const a of answers) {
    const r = scoreOf(id, a);
    assert.equal(r.score, 1, `task ${id}: ${JSON.stringify(a)} should pass: ${r.why}`);
  }
}

function wrong(id: number, answers: unknown[]): void {
  for (const a of answers) {
    const r = scoreOf(id, a);
    assert.equal(r.score, 0, `task ${id}: ${JSON.stringify(a)} should fail`);
    assert.ok(r.why.length > 0);
  }
}

test('strings: case, trademark signs, accents, quotes and a JSON-string list all pass; another name fails', () => {
  right(0, [
    ['Quest Lumaflex™ Band'],
    ['quest lumaflex band'],
    ['"Quest Lumaflex Band."'],
    '["QUEST LUMAFLEX BAND"]',
    'Quest Lumaflex Band',
  ]);
  wrong(0, [['Quest Lumaflex Strap'], []]);
});

test('a list of location names matches in any order; a missing item or an extra one fails', () => {
  const names = [
    'El Gallo de Oro',
    'Back Bar Grill',
    'Grano',
    'Beefsteak',
    'Nourish',
    'Schatz Dining Room',
    'Au Bon Pain',
  ];
  right(57, [names, [...names].reverse(), names.map((n) => n.toUpperCase())]);
  wrong(57, [names.slice(1), [...names, 'Starbucks']]);
});

test('numbers: 6, "6", 6.0 and "six" pass; a near miss fails', () => {
  right(11, [[6], ['6'], [6.0], ['six']]);
  wrong(11, [[7], [6.01], ['6 items and more']]);
});

test('currency: symbols, codes and cents within 0.1 pass; another currency or 0.2 off fails', () => {
  right(94, [[36.39], ['$36.39'], ['36.39 USD'], ['US$ 36.39'], ['$36.43']]);
  wrong(94, [['€36.39'], ['£36.39'], ['$36.59'], [63.39]]);
});

test('booleans: true, "yes" and "True" pass; false fails', () => {
  right(36, [[true], ['yes'], ['True']]);
  wrong(36, [[false], ['no']]);
});

test('dates: written out, ISO, US numeric and with an ordinal pass; the next day fails', () => {
  right(117, [['March 2, 2022'], ['2022-03-02'], ['03/02/2022'], ['Mar 2nd, 2022'], ['2 March 2022']]);
  wrong(117, [['2022-03-03'], ['March 2, 2023']]);
});

test('months in objects: "May", "may", 5 and "2023-05" pass; a count one off fails', () => {
  const c = configOf(107);
  const expected = c.expected.retrieved_data as { month: string; count: number }[];
  const months = ['may', '6', 'Jul', 'August', 'sep', 'October'];
  const asWritten = expected.map((e, i) => ({ month: months[i] ?? e.month, count: e.count }));
  right(107, [expected, asWritten, expected.map((e) => ({ ...e, count: String(e.count) }))]);
  wrong(107, [expected.map((e, i) => (i === 0 ? { ...e, count: e.count + 1 } : e)), expected.slice(1)]);
});

test('durations: minutes, clock time and hours pass within 3 minutes; 15 minutes for 7 fails', () => {
  right(52, [['7min'], ['7 minutes'], ['0:07:00'], ['9 min'], ['0.1166 hours']]);
  wrong(52, [['15min'], ['7'], ['11 minutes']]);
});

test('objects with durations: keys in any order and units spelled out pass; a wrong mode fails', () => {
  right(16, [
    [
      { mode: 'walking', duration: '16 minutes' },
      { mode: 'Driving', duration: '2 min' },
    ],
    [
      { duration: '2min', mode: 'driving' },
      { duration: '0:16:00', mode: 'walking' },
    ],
  ]);
  wrong(16, [
    [{ mode: 'driving', duration: '2min' }],
    [
      { mode: 'cycling', duration: '2min' },
      { mode: 'walking', duration: '16min' },
    ],
  ]);
});

test('distances: km, metres and miles pass within 2%; 950 km for 914 fails', () => {
  right(97, [['914km'], ['914 km'], ['914000 m'], ['568 miles'], ['920km']]);
  wrong(97, [['950km'], ['914'], ['914 kg']]);
});

test('coordinates: an object, "lat, lon" text and a pair pass; 0.001° off fails', () => {
  right(248, [
    [{ latitude: '40.4424191', longitude: '-79.9397388' }],
    ['40.4424191, -79.9397388'],
    [[40.4424191, -79.9397388]],
    [{ lat: 40.4424191, lng: -79.9397388 }],
  ]);
  wrong(248, [[{ latitude: 40.4434191, longitude: -79.9397388 }], ['-79.9397388, 40.4424191']]);
});

test('URLs: the deployment host stands for its placeholder; another repository fails', () => {
  right(293, [
    ['git@localhost:convexegg/super_awesome_robot.git'],
    ['git@__SSH_HOST__:convexegg/super_awesome_robot.git'],
  ]);
  wrong(293, [['git@localhost:convexegg/chatgpt.git']]);
});

test('addresses: each field normalised, keys in any order; a missing field or a wrong postcode fails', () => {
  right(7, [
    [{ name: 'Pittsburgh International Airport', state: 'Pennsylvania', postcode: '15231' }],
    [{ postcode: '15231', state: 'pennsylvania', name: 'PITTSBURGH INTERNATIONAL AIRPORT' }],
  ]);
  wrong(7, [
    [{ name: 'Pittsburgh International Airport', state: 'Pennsylvania' }],
    [{ name: 'Pittsburgh International Airport', state: 'Pennsylvania', postcode: '15213' }],
  ]);
});

test('status and task type: the wrong status fails, any case and the legacy key pass', () => {
  const notFound = configOf(8);
  assert.equal(
    evaluateAgentResponse(
      notFound,
      JSON.stringify({ task_type: 'RETRIEVE', status: 'not_found_error', retrieved_data: null }),
    ).score,
    1,
  );
  assert.equal(
    evaluateAgentResponse(
      notFound,
      JSON.stringify({ task_type: 'retrieve', status: 'SUCCESS', retrieved_data: ['x'] }),
    ).score,
    0,
  );
  const mutate = configOf(389);
  const ok = { performed_operation: 'Mutate', status: 'success', retrieved_data: null, error_details: null };
  assert.equal(evaluateAgentResponse(mutate, `Done.\n\`\`\`json\n${JSON.stringify(ok)}\n\`\`\``).score, 1);
  assert.equal(
    evaluateAgentResponse(mutate, JSON.stringify({ ...ok, performed_operation: 'navigate' })).score,
    0,
  );
  assert.equal(evaluateAgentResponse(mutate, JSON.stringify({ ...ok, status: 'UNKNOWN_ERROR' })).score, 0);
  const noData = evaluateAgentResponse(mutate, JSON.stringify({ task_type: 'mutate', status: 'SUCCESS' }));
  assert.equal(noData.score, 0);
  assert.match(noData.why, /missing key retrieved_data/);
  assert.equal(evaluateAgentResponse(mutate, 'I changed it').score, 0);
});
