// The supervisor's episode queue: pull-based hand-out, a dead worker's episode goes back under the
// same id, and late or repeated results are not counted twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EpisodeQueue } from '../../src/actors/supervisor/episode-queue.js';
import type { EpisodeResultMessage } from '../../src/protocol/index.js';
import { episodeSpec } from '../helpers/episodes.js';

const spec = episodeSpec;

const result = (episodeId: string, reward = 1): EpisodeResultMessage => ({
  type: 'episode_result',
  workerId: 'env-0',
  requestId: 0,
  episodeId,
  taskFile: 'tasks.json',
  taskId: episodeId.slice(1),
  split: 'train',
  iteration: 1,
  reward,
  steps: 3,
  answer: 'x',
  endReason: 'answer',
  kept: reward > 0,
  policyVersions: [0],
  durationMs: 10,
});

test('a phase resolves with one result per episode, in the order given', async () => {
  const queue = new EpisodeQueue();
  const done = queue.run([spec(1), spec(2)]);
  const a = queue.next('env-0')!;
  const b = queue.next('env-1')!;
  assert.equal(queue.next('env-2'), null, 'nothing left to hand out');
  assert.equal(queue.complete(result(b.episodeId, 0)), true);
  assert.deepEqual(queue.progress, { done: 1, total: 2 });
  assert.equal(queue.complete(result(a.episodeId, 1)), true);
  const results = await done;
  assert.deepEqual(
    results.map((r) => [r.episodeId, r.reward]),
    [
      ['e1', 1],
      ['e2', 0],
    ],
  );
});

test("a dead worker's episode goes back first, under the same id, and counts once", async () => {
  const queue = new EpisodeQueue();
  const done = queue.run([spec(1), spec(2)]);
  const held = queue.next('env-0')!;
  assert.equal(queue.requeueWorker('env-0'), 1);
  assert.equal(queue.requeueWorker('env-0'), 0, 'nothing held twice');
  const again = queue.next('env-1')!;
  assert.equal(again.episodeId, held.episodeId);
  assert.equal(queue.complete(result(again.episodeId)), true);
  // The first worker was not dead after all: its late result is ignored.
  assert.equal(queue.complete(result(held.episodeId)), false);
  const other = queue.next('env-1')!;
  queue.complete(result(other.episodeId));
  assert.equal((await done).length, 2);
  assert.equal(queue.requeued, 1);
});

test('results for unknown episodes and after close are refused', () => {
  const queue = new EpisodeQueue();
  assert.equal(queue.complete(result('nope')), false);
  void queue.run([spec(1)]);
  queue.close();
  assert.equal(queue.next('env-0'), null, 'a closed queue hands out nothing');
});

test('an episode given back by a worker whose host is down goes to the next worker, once', async () => {
  const queue = new EpisodeQueue();
  const done = queue.run([spec(1)]);
  const held = queue.next('env-0')!;
  assert.equal(queue.giveBack(held.episodeId, 'env-1'), false, 'only the worker holding it can give it back');
  assert.equal(queue.giveBack(held.episodeId, 'env-0'), true);
  assert.equal(queue.giveBack(held.episodeId, 'env-0'), false, 'nothing given back twice');
  const again = queue.next('env-1')!;
  assert.equal(again.episodeId, held.episodeId);
  queue.complete(result(again.episodeId));
  assert.equal((await done).length, 1);
  assert.equal(queue.requeued, 1);
});

test('a result for an episode requeued while its worker still ran it counts once and leaves the queue', async () => {
  const queue = new EpisodeQueue();
  const done = queue.run([spec(1), spec(2), spec(3)]);
  const held = queue.next('env-0')!;
  // The worker looked wedged: its episode went back, but no one took it before it reported.
  assert.equal(queue.requeueOlderThan(-1), 1);
  assert.equal(queue.complete(result(held.episodeId)), true);
  assert.equal(queue.complete(result(held.episodeId)), false, 'not counted twice');
  const rest = [queue.next('env-1')!, queue.next('env-1')!];
  assert.notEqual(rest[0]?.episodeId, held.episodeId);
  assert.equal(queue.next('env-1'), null, 'the reported episode is no longer handed out');
  for (const r of rest) queue.complete(result(r.episodeId));
  assert.deepEqual(
    (await done).map((r) => r.episodeId),
    [spec(1), spec(2), spec(3)].map((s) => s.episodeId),
  );
});
