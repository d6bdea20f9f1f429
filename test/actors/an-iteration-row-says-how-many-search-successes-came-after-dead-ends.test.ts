// With collect.search, an iteration's metrics row says what its searches did: how many succeeded,
// how many of those only after a first rollout that failed (what going back found). A collection
// without search has no such row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeSearches } from '../../src/loop/search-summary.js';
import type { EpisodeResultMessage } from '../../src/protocol/index.js';

const result = (id: number, reward: number, search?: { rollouts: number }): EpisodeResultMessage => ({
  type: 'episode_result',
  workerId: 'env-0',
  requestId: id,
  episodeId: `e${id}`,
  taskFile: 'tasks.json',
  taskId: String(id),
  split: 'train',
  iteration: 1,
  reward,
  steps: 10,
  answer: null,
  endReason: reward > 0 ? 'answer' : 'search_budget',
  kept: reward > 0,
  policyVersions: [0],
  durationMs: 1,
  ...(search ? { search: { cells: 3, envSteps: 10, diverged: 0, deepest: 2, ...search } } : {}),
});

test('successes after dead ends are those a later rollout found', () => {
  const summary = summarizeSearches([
    result(1, 1, { rollouts: 1 }),
    result(2, 1, { rollouts: 4 }),
    result(3, 1, { rollouts: 2 }),
    result(4, 0, { rollouts: 6 }),
  ]);
  assert.deepEqual(summary, {
    searches: 4,
    rollouts: 13,
    successes: 3,
    successesAfterDeadEnds: 2,
  });
});

test('a collection without search has no search summary', () => {
  assert.equal(summarizeSearches([result(1, 1), result(2, 0)]), null);
});
