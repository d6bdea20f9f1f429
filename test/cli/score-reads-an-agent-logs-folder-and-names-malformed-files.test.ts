// `tti-run score` over a WebArena-Verified agent-logs folder written by hand as another agent
// would leave it (OUT/<task_id>/agent_response.json and network.har): per task the score, the
// evaluator that decided it and why, the network checks over the HAR's events (JSONPath post data,
// query parameters, a navigate task's last navigation, should_not_exist); a malformed response or
// trace scores 0 and names its file and field.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../../src/util/paths.js';
import { harEntry as entry } from '../helpers/har-entry.js';
import { runCli } from '../helpers/run-fixture.js';

const tasks = path.join(projectRoot, '..', 'shared', 'data', 'webarena-verified', 'webarena-verified.json');
const GITLAB = 'http://localhost:8023';

function write(dir: string, id: number, response: unknown, entries: unknown[] | string | null): void {
  const taskDir = path.join(dir, String(id));
  mkdirSync(taskDir, { recursive: true });
  writeFileSync(
    path.join(taskDir, 'agent_response.json'),
    typeof response === 'string' ? response : JSON.stringify(response),
  );
  if (entries === null) return;
  const har =
    typeof entries === 'string'
      ? entries
      : JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries } });
  writeFileSync(path.join(taskDir, 'network.har'), har);
}

const mutated = { task_type: 'MUTATE', status: 'SUCCESS', retrieved_data: null, error_details: null };

test('score gives each task its score, deciding evaluator and reason, and names malformed files', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-agent-logs-'));
  // a comment on the merge request: JSON post data read by JSONPath, the query from the URL
  write(dir, 389, mutated, [
    entry('GET', `${GITLAB}/primer/design/-/merge_requests/450`, 200, { type: 'document' }),
    entry('POST', `${GITLAB}/primer/design/notes?target_id=139245&target_type=merge_request`, 200, {
      type: 'xhr',
      json: {
        note: { noteable_type: 'MergeRequest', note: 'Thanks, working on reviews', noteable_id: 139245 },
      },
    }),
  ]);
  // the wrong assignee (a typed list of numbers in the post data)
  write(dir, 446, mutated, [
    entry('PUT', `${GITLAB}/a11yproject/a11yproject.com/-/issues/1478.json?serializer=sidebar`, 200, {
      type: 'fetch',
      json: { issue: { assignee_ids: [2330] } },
    }),
  ]);
  // a navigate task: the last navigation decides; ignored query parameters do not count
  write(dir, 44, { task_type: 'navigate', status: 'SUCCESS', retrieved_data: null }, [
    entry('GET', `${GITLAB}/dashboard/issues`, 200, { type: 'document' }),
    entry('GET', `${GITLAB}/dashboard/todos?state=pending&sort=created_desc&page=2`, 200, {
      type: 'document',
    }),
  ]);
  // a retrieve task whose response names a status that does not exist
  write(dir, 11, { task_type: 'retrieve', status: 'DONE', retrieved_data: [6] }, null);
  // a response that is not JSON
  write(dir, 94, '{"task_type": "retrieve", ', null);
  // a trace whose first entry has no URL
  write(dir, 394, mutated, [
    {
      request: { method: 'POST', headers: [] },
      response: { status: 201, headers: [], content: { mimeType: '' } },
    },
  ]);
  writeFileSync(path.join(dir, 'tti-hosts.json'), JSON.stringify({ __GITLAB__: GITLAB }));

  const result = await runCli(['score', '--tasks', tasks, '--agent-logs', dir, '--json']);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    tasks: number;
    score: number;
    byTask: Record<string, { score: number; evaluators: { name: string; score: number; reason: string }[] }>;
  };
  assert.equal(report.tasks, 6);
  const score = (id: number) => report.byTask[String(id)]!;
  const reason = (id: number, name: string) =>
    score(id).evaluators.find((e) => e.name === name)?.reason ?? '';
  assert.equal(score(389).score, 1, JSON.stringify(score(389)));
  assert.deepEqual(
    score(389).evaluators.map((e) => e.name),
    ['AgentResponseEvaluator', 'NetworkEventEvaluator'],
  );
  assert.equal(score(446).score, 0);
  assert.match(reason(446, 'NetworkEventEvaluator'), /post_data\.\$\.issue\.assignee_ids/);
  assert.equal(score(44).score, 1, JSON.stringify(score(44)));
  assert.equal(score(11).score, 0);
  assert.match(reason(11, 'AgentResponseEvaluator'), /11[/\\]agent_response\.json: field status/);
  assert.equal(score(94).score, 0);
  assert.match(reason(94, 'AgentResponseEvaluator'), /94[/\\]agent_response\.json: not JSON/);
  assert.equal(score(394).score, 0);
  assert.match(
    reason(394, 'NetworkEventEvaluator'),
    /394[/\\]network\.har: field log\.entries\[0\]\.request\.url/,
  );
  assert.equal(report.score, 2 / 6);

  const text = await runCli(['score', '--tasks', tasks, '--agent-logs', dir]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /task 446: 0 \(NetworkEventEvaluator: the last matching event: post_data/);
  assert.match(text.stdout, /task 389: 1 \(NetworkEventEvaluator: POST/);
  assert.match(text.stdout, /6 task\(s\) scored, mean score 0\.3333/);
});

test('a navigation that left the page, or a check that must not happen, scores 0', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-agent-logs-'));
  write(dir, 44, { task_type: 'navigate', status: 'SUCCESS', retrieved_data: null }, [
    entry('GET', `${GITLAB}/dashboard/todos`, 200, { type: 'document' }),
    entry('GET', `${GITLAB}/dashboard/issues`, 200, { type: 'document' }),
  ]);
  write(dir, 528, mutated, [
    entry('POST', 'http://localhost:7770/contact/index/post', 302, {
      type: 'document',
      form: 'name=Emma+Lopez',
    }),
  ]);
  const result = await runCli([
    'score',
    '--tasks',
    tasks,
    '--agent-logs',
    dir,
    '--webarena-host',
    'localhost',
    '--json',
  ]);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    byTask: Record<string, { score: number; evaluators: { reason: string }[] }>;
  };
  assert.equal(report.byTask['44']!.score, 0);
  assert.match(report.byTask['44']!.evaluators[1]!.reason, /url: __GITLAB__\/dashboard\/issues is not/);
  assert.equal(report.byTask['528']!.score, 0);
  assert.ok(report.byTask['528']!.evaluators.some((e) => /where none may be/.test(e.reason)));
});
