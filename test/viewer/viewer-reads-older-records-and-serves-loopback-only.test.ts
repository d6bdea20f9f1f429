// The viewer's server without a browser: records from before summary.json (labels looked up in
// their task file), a broken record named once and skipped, a half-written episode picked up when
// it is finished; and the server answers only loopback names, only reads, and only files it listed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { EpisodeSummary } from '../../src/envs/index.js';
import { projectRoot } from '../../src/util/paths.js';
import { startViewer } from '../../src/viewer/server.js';

const runDir = mkdtempSync(path.join(tmpdir(), 'tti-viewer-'));
after(() => rmSync(runDir, { recursive: true, force: true }));
const episodes = path.join(runDir, 'episodes');

/** A record as env workers wrote it before runs, labels and boxes were recorded. */
function olderRecord(id: string, taskId: string, file: string, startedAt: string) {
  return {
    episodeId: id,
    task: {
      id: taskId,
      kind: 'webarena',
      intent: `task ${taskId}`,
      sites: ['shopping'],
      startUrls: ['http://127.0.0.1:1/shop/'],
      source: { file, entry: 0, format: 'webarena-raw' },
    },
    horizon: 3,
    minTry: 1,
    actionFormat: 'tti',
    steps: [
      {
        index: 0,
        url: 'http://127.0.0.1:1/shop/',
        observation: "Tab 0 (current): Shop\n\n[1] RootWebArea 'Shop'",
        notes: [],
        reply: 'Thought: done.\nAction: ANSWER [x]',
        action: { type: 'stop', answer: 'x' },
        actionText: 'stop [x]',
        result: [],
        startedAt,
        actMs: 1,
        observeMs: 2,
      },
    ],
    answer: 'x',
    endReason: 'answer',
    error: null,
    blockedRequests: [],
    verdict: { score: 1, success: true, status: 'scored', why: 'string_match: ok', parts: [] },
    startedAt,
    durationMs: 10,
  };
}

function write(id: string, file: string, text: string): void {
  mkdirSync(path.join(episodes, id), { recursive: true });
  writeFileSync(path.join(episodes, id, file), text);
}

function get(port: number, pathname: string, host = `127.0.0.1:${port}`, method = 'GET') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('older records are listed with labels from their task file; broken ones are named; late ones appear', async () => {
  const miniarena = path.join(projectRoot, 'tasks', 'miniarena', 'train.json');
  write('old-1', 'record.json', JSON.stringify(olderRecord('old-1', '0', miniarena, '2026-01-01T00:00:02Z')));
  write(
    'old-2',
    'record.json',
    JSON.stringify(olderRecord('old-2', '9', '/gone/tasks.json', '2026-01-01T00:00:01Z')),
  );
  write('broken', 'record.json', '{"episodeId": "broken", ');
  write('pending', 'step-000.jpg', 'jpeg');
  write('step-000.jpg', 'x', 'not an episode folder');

  const viewer = await startViewer({ runDir, port: 0 });
  after(() => viewer.close());
  const list = JSON.parse((await get(viewer.port, '/api/episodes')).body) as {
    total: number;
    episodes: EpisodeSummary[];
    warnings: string[];
  };
  assert.deepEqual(
    list.episodes.map((s) => [s.episodeId, s.template, s.tier, s.iteration, s.success]),
    [
      ['old-2', null, null, null, true],
      ['old-1', 'shop_price', 1, null, true],
    ],
    "in start order; labels from MiniArena's task file, none for a task file that is gone",
  );
  assert.equal(list.warnings.length, 1);
  assert.match(list.warnings[0]!, /broken[/\\]record\.json: .*not listed/);

  // The half-written episode is finished; the next look lists it, and only it.
  write(
    'pending',
    'record.json',
    JSON.stringify(olderRecord('pending', '0', miniarena, '2026-01-01T00:00:03Z')),
  );
  await new Promise((r) => setTimeout(r, 600)); // past the rescan interval
  const later = JSON.parse((await get(viewer.port, '/api/episodes?since=2')).body) as {
    total: number;
    episodes: EpisodeSummary[];
    warnings: string[];
  };
  assert.equal(later.total, 3);
  assert.deepEqual(
    later.episodes.map((s) => s.episodeId),
    ['pending'],
  );
  assert.equal(later.warnings.length, 1, 'the broken record is named once, not at every scan');

  const record = await get(viewer.port, '/api/episodes/old-1');
  assert.equal(record.status, 200);
  assert.equal((JSON.parse(record.body) as { episodeId: string }).episodeId, 'old-1');
  assert.equal((await get(viewer.port, '/api/episodes/pending/step-000.jpg')).status, 200);

  // Only what it listed, only reading, only under loopback names.
  for (const bad of [
    '/api/episodes/broken',
    '/api/episodes/old-1/record.json',
    '/api/episodes/..%2F..%2Fetc/passwd',
    '/api/episodes/old-1/..%2F..%2F..%2Fetc%2Fpasswd',
    '/api/episodes/%E0%A4%A',
    '/etc/passwd',
  ])
    assert.equal((await get(viewer.port, bad)).status, 404, bad);
  assert.equal((await get(viewer.port, '/api/run', 'attacker.example:80')).status, 403, 'DNS rebinding');
  assert.equal((await get(viewer.port, '/api/run', `localhost:${viewer.port}`)).status, 200);
  assert.equal((await get(viewer.port, '/api/episodes', undefined, 'POST')).status, 405);
  const page = await get(viewer.port, '/');
  assert.equal(page.status, 200);
  assert.match(page.body, /<script type="module" src="\/app.js">/);
});
