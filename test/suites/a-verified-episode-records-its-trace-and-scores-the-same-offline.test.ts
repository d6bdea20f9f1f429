// A WebArena-Verified episode in real Chromium on a real local site: the env records the episode's
// requests and responses from before its first navigation (the start page's own load too), an
// answer that is not their JSON response is an invalid action, the verdict is every evaluator's,
// and the agent-logs layout it leaves scores the same offline.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BrowserEnv, type VerifiedTask, VerifiedTaskSchema } from '../../src/envs/index.js';
import { verified } from '../../src/suites/index.js';
import { page, serve, type TestServer } from '../envs/support/server.js';

let server: TestServer;
let env: BrowserEnv;
let logDir: string;
let hosts: Map<string, string>;
const notes: unknown[] = [];

/** A mutate task of the verified format on the test site (as if it were GitLab). */
const task: VerifiedTask = VerifiedTaskSchema.parse({
  sites: ['gitlab'],
  task_id: 9001,
  intent_template_id: 1,
  start_urls: ['__GITLAB__/mr'],
  intent: 'Comment "lgtm" on the merge request',
  intent_template: 'Comment "{{c}}" on the merge request',
  instantiation_dict: { c: 'lgtm' },
  revision: 1,
  eval: [
    {
      evaluator: 'AgentResponseEvaluator',
      results_schema: { type: 'null' },
      expected: { task_type: 'mutate', status: 'SUCCESS', retrieved_data: null },
    },
    {
      evaluator: 'NetworkEventEvaluator',
      ignored_query_params: ['serializer'],
      expected: {
        url: '__GITLAB__/mr/notes',
        http_method: 'POST',
        query_params: { target_id: ['42'] },
        post_data: { '$.note.note': 'lgtm' },
        response_content: { id: 7 },
      },
    },
  ],
});

before(async () => {
  server = await serve({
    '/mr': page(
      'Merge request',
      `<h1>MR 42</h1><input aria-label="Comment"><button onclick="send()">Send</button><p id="s"></p>
       <script>async function send() {
         const note = document.querySelector('input').value;
         const r = await fetch('/mr/notes?target_id=42&serializer=x', { method: 'POST',
           headers: { 'content-type': 'application/json' }, body: JSON.stringify({ note: { note } }) });
         document.getElementById('s').textContent = 'Saved ' + (await r.json()).id;
       }</script>`,
    ),
    '/mr/notes': (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        notes.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 7 }));
      });
    },
  });
  hosts = new Map([['__GITLAB__', server.origin]]);
  logDir = mkdtempSync(path.join(tmpdir(), 'tti-verified-logs-'));
  env = await BrowserEnv.launch({
    actionFormat: 'tti',
    allowedOrigins: [server.origin],
    hooks: verified.verifiedHooks({ tasks: new Map([['9001', task]]), hosts, logDir, warn: () => {} }),
  });
});
after(async () => {
  await env.close();
  await server.close();
});

function elementId(text: string, role: string, name: string): string {
  const m = new RegExp(`\\[(\\d+)\\] ${role} '${name}'`).exec(text);
  assert.ok(m, `no ${role} '${name}' in:\n${text}`);
  return m[1]!;
}

test('the episode is scored from its trace; the logs it leaves score the same offline', async () => {
  const obs = await env.reset(verified.verifiedTask(task, 'tasks.json', 0, hosts));
  const box = elementId(obs.text, 'textbox', 'Comment');
  const typed = await env.step(`Thought: type it\nAction: Type [${box}] [lgtm]`);
  const send = elementId(typed.observation!.text, 'button', 'Send');
  const sent = await env.step(`Thought: send\nAction: Click [${send}]`);
  assert.equal(notes.length, 1);
  // free text is not their response: an invalid action, the episode goes on
  const plain = await env.step('Thought: done\nAction: ANSWER [done]');
  assert.equal(plain.done, false);
  assert.equal(plain.action.type, 'none');
  assert.match(plain.observation?.notes.join('\n') ?? '', /JSON object/);
  const answer = { task_type: 'MUTATE', status: 'SUCCESS', retrieved_data: null, error_details: null };
  const end = await env.step(`Thought: done\nAction: ANSWER [${JSON.stringify(answer)}]`);
  assert.equal(sent.done, false);
  assert.equal(end.done, true);
  const verdict = end.record!.verdict;
  assert.equal(verdict.score, 1, verdict.why);
  assert.deepEqual(
    verdict.parts.map((p) => p.evaluator),
    ['AgentResponseEvaluator', 'NetworkEventEvaluator'],
  );

  const har = JSON.parse(readFileSync(path.join(logDir, '9001', 'network.har'), 'utf8')) as {
    log: {
      entries: {
        request: { method: string; url: string; postData?: { text: string } };
        response: { status: number };
        _resourceType: string;
      }[];
    };
  };
  // recorded from before the first navigation: the start page's own load comes first
  const first = har.log.entries[0]!;
  assert.deepEqual(
    [first.request.method, first.request.url, first.response.status, first._resourceType],
    ['GET', `${server.origin}/mr`, 200, 'document'],
  );
  const post = har.log.entries.find((e) => e.request.method === 'POST');
  assert.ok(post, 'the POST is in the trace');
  assert.equal(post.request.url, `${server.origin}/mr/notes?target_id=42&serializer=x`);
  assert.deepEqual(JSON.parse(post.request.postData!.text), { note: { note: 'lgtm' } });
  assert.ok(existsSync(path.join(logDir, '9001', 'agent_response.json')));
  const offline = verified.scoreTask(
    task,
    verified.readAgentLogs(logDir, '9001', true),
    verified.verifiedDerender(hosts),
  );
  assert.deepEqual(
    offline.evaluators.map((e) => [e.name, e.score]),
    verdict.parts.map((p) => [p.evaluator, p.score]),
  );
});

test('an episode that sent nothing scores 0 by its network check, the same offline', async () => {
  await env.reset(verified.verifiedTask(task, 'tasks.json', 0, hosts));
  const answer = { task_type: 'mutate', status: 'SUCCESS', retrieved_data: null };
  const end = await env.step(`Thought: claim it\nAction: ANSWER [${JSON.stringify(answer)}]`);
  const verdict = end.record!.verdict;
  assert.equal(verdict.score, 0);
  assert.match(verdict.why, /NetworkEventEvaluator: no POST __GITLAB__\/mr\/notes/);
  const offline = verified.scoreTask(
    task,
    verified.readAgentLogs(logDir, '9001', true),
    verified.verifiedDerender(hosts),
  );
  assert.equal(offline.score, 0);
  assert.equal(offline.evaluators[1]!.reason, verdict.parts[1]!.why);
});
