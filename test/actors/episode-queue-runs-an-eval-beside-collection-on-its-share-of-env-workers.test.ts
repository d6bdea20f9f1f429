// The supervisor's episode queue with phases side by side (rollout.max_policy_lag ≥ 1): collections
// are handed out oldest first, an eval beside them gets at most its share of the env workers while
// collection has episodes waiting and every worker once it has none, each phase resolves on its
// own, a dead worker's episode goes back to its own phase, and every counted result is reported as
// it arrives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EpisodeQueue } from '../../src/actors/supervisor/episode-queue.js';
import type { EpisodeSpec } from '../../src/loop/index.js';
import type { EpisodeResultMessage } from '../../src/protocol/index.js';
import { episodeSpec } from '../helpers/episodes.js';

const spec = (n: number, iteration: number, evaluating = false): EpisodeSpec => ({
  ...episodeSpec(n),
  iteration,
  ...(evaluating ? { split: 'test', greedy: true, toReplay: false } : {}),
});

const result = (s: EpisodeSpec): EpisodeResultMessage => ({
  type: 'episode_result',
  workerId: 'env-0',
  requestId: 0,
  episodeId: s.episodeId,
  taskFile: s.taskFile,
  taskId: s.taskId,
  split: s.split,
  iteration: s.iteration,
  reward: 1,
  steps: 3,
  answer: 'x',
  endReason: 'answer',
  kept: s.toReplay,
  policyVersions: [0],
  durationMs: 10,
});

test('collections go oldest first and an eval gets its share of workers beside them', async () => {
  const queue = new EpisodeQueue(1);
  const arrived: string[] = [];
  queue.onResult = (r) => arrived.push(r.episodeId);
  const first = queue.run([spec(1, 1), spec(2, 1)]);
  const second = queue.run([spec(3, 2), spec(4, 2)]);
  const evaluation = queue.run([spec(5, 1, true), spec(6, 1, true), spec(7, 1, true)], 'eval');

  const a = queue.next('env-0')!;
  const b = queue.next('env-1')!;
  const c = queue.next('env-2')!;
  assert.deepEqual(
    [a.episodeId, b.episodeId, c.episodeId],
    ['e5', 'e1', 'e2'],
    'one worker on the eval, the rest on the oldest collection',
  );
  queue.complete(result(b));
  assert.equal(
    queue.next('env-1')!.episodeId,
    'e3',
    'then the next iteration, while the eval holds its share',
  );
  queue.complete(result(c));
  assert.deepEqual(
    (await first).map((r) => r.episodeId),
    ['e1', 'e2'],
    'the first collection resolves on its own',
  );

  // A worker that dies holding an eval episode gives it back to the eval.
  assert.equal(queue.requeueWorker('env-0'), 1);
  assert.equal(queue.next('env-0')!.episodeId, 'e5');
  const d = queue.next('env-2')!;
  assert.equal(d.episodeId, 'e4', 'the eval is at its share: collection first');
  queue.complete(result(d));
  // No collection waiting: a free worker takes an eval episode beyond the share.
  assert.equal(queue.next('env-2')!.episodeId, 'e6');
  assert.equal(queue.next('env-3')!.episodeId, 'e7');
  for (const id of ['e3', 'e5', 'e6', 'e7'])
    queue.complete(result(id === 'e3' ? spec(3, 2) : spec(Number(id.slice(1)), 1, true)));
  assert.deepEqual(
    (await second).map((r) => r.episodeId),
    ['e3', 'e4'],
  );
  assert.deepEqual(
    (await evaluation).map((r) => r.episodeId),
    ['e5', 'e6', 'e7'],
  );
  assert.deepEqual(arrived, ['e1', 'e2', 'e4', 'e3', 'e5', 'e6', 'e7']);
  assert.equal(queue.next('env-0'), null);
});
