// WebArena-Verified's NetworkEventEvaluator on real tasks of the dataset over hand-made trace
// events: a base64 query in the path decoded and its dates typed, response cookies by pattern, a
// request header by a negative pattern, ignored post-data keys, and any of several events; each
// passes as the site would send it and fails one field off.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  evaluateNetworkEvents,
  type NetworkEventEvaluatorConfig,
  networkEvents,
  VerifiedTaskSchema,
} from '../../src/envs/index.js';
import { verified } from '../../src/suites/index.js';
import { projectRoot } from '../../src/util/paths.js';
import { harEntry as entry } from '../helpers/har-entry.js';

const file = path.join(projectRoot, '..', 'shared', 'data', 'webarena-verified', 'webarena-verified.json');
const tasks = new Map(
  (JSON.parse(readFileSync(file, 'utf8')) as unknown[]).map((raw) => {
    const t = VerifiedTaskSchema.parse(raw);
    return [t.task_id, t];
  }),
);
const hosts = verified.verifiedHosts('localhost');
const derender = verified.verifiedDerender(hosts);

function check(id: number, index = 0): { config: NetworkEventEvaluatorConfig; taskType: string } {
  const t = tasks.get(id)!;
  const configs = t.eval.filter((e) => e.evaluator === 'NetworkEventEvaluator');
  const config = configs[index];
  assert.ok(config?.evaluator === 'NetworkEventEvaluator');
  const response = t.eval.find((e) => e.evaluator === 'AgentResponseEvaluator');
  assert.ok(response?.evaluator === 'AgentResponseEvaluator');
  return { config, taskType: response.expected.task_type };
}

function score(id: number, entries: ReturnType<typeof entry>[], index = 0): { score: number; why: string } {
  const { config, taskType } = check(id, index);
  const har = { log: { version: '1.2', creator: { name: 't', version: '1' }, entries } };
  return evaluateNetworkEvents(config, networkEvents(har), { taskType, derender });
}

const magentoBase64 = (q: string) =>
  Buffer.from(q).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, ',');

test('a base64 query in the path is decoded, other parameters ignored, its dates typed', () => {
  const report = (to: string) =>
    `http://localhost:7780/admin/reports/report_sales/sales/filter/${magentoBase64(`report_type=created_at_order&period_type=day&from=2%2F1%2F2023&to=${to}&show_order_statuses=0`)}/`;
  const ok = score(704, [entry('GET', report('2%2F28%2F2023'), 200, { type: 'document' })]);
  assert.equal(ok.score, 1, ok.why);
  assert.equal(score(704, [entry('GET', report('2%2F27%2F2023'), 200, { type: 'document' })]).score, 0);
});

test('response cookies match by pattern, URL-decoded', () => {
  const message = (what: string) =>
    `mage-messages=${encodeURIComponent(JSON.stringify([{ type: 'success', text: `${what} has been added to your Wish List.` }]))}; path=/`;
  const post = (what: string) =>
    entry('POST', 'http://localhost:7770/wishlist/index/add/', 302, {
      form: 'product=7&form_key=x',
      setCookie: message(what),
    });
  const ok = score(511, [post('Tide Laundry Detergent')]);
  assert.equal(ok.score, 1, ok.why);
  assert.match(score(511, [post('Dish Soap')]).why, /response_cookies\.mage-messages/);
});

test('a request header is matched by a negative pattern; the route path by a pattern', () => {
  const route = (engine: string) =>
    entry(
      'GET',
      'http://localhost:5000/route/v1/driving/-68.2177005,44.3494709;-68.767507,44.8030715?overview=false',
      200,
      {
        headers: { Cookie: `_osm_directions_engine=${engine}; _osm_session=abc` },
      },
    );
  const ok = score(267, [route('fossgis_osrm_car')]);
  assert.equal(ok.score, 1, ok.why);
  assert.match(score(267, [route('fossgis_osrm_foot')]).why, /headers\.Cookie/);
});

test('ignored post-data keys do not count; a changed field does', () => {
  const form = (city: string) =>
    `form_key=abc&street%5B0%5D=456+Oak+Avenue&street%5B1%5D=Apartment+5B&country_id=US&region=New+York&region_id=43&city=${city}&postcode=10001`;
  const save = (city: string) =>
    entry('POST', 'http://localhost:7780/admin/sales/order/addressSave/address_id/598/', 302, {
      type: 'document',
      form: form(city),
    });
  const ok = score(538, [save('New+York')]);
  assert.equal(ok.score, 1, ok.why);
  assert.match(score(538, [save('Albany')]).why, /post_data\.city/);
});

test('with last_event_only false any matching event passes; by default only the last one counts', () => {
  const bio = (text: string) =>
    entry('POST', 'http://localhost:9999/user/MarvelsGrantMan136/edit_biography', 302, {
      type: 'document',
      form: `user_biography%5Bbiography%5D=${encodeURIComponent(text)}&user_biography%5B_token%5D=t`,
    });
  assert.equal(score(399, [bio('I am a robot'), bio('I am a human')]).score, 1);
  assert.equal(score(399, [bio('I am a human')]).score, 0);
  // 389's check keeps the default: a later comment replaces the right one
  const note = (text: string) =>
    entry(
      'POST',
      'http://localhost:8023/primer/design/notes?target_id=139245&target_type=merge_request',
      200,
      {
        json: { note: { noteable_type: 'MergeRequest', note: text } },
      },
    );
  assert.equal(score(389, [note('x'), note('Thanks, working on reviews')]).score, 1);
  assert.match(
    score(389, [note('Thanks, working on reviews'), note('x')]).why,
    /the last matching event: post_data/,
  );
});
