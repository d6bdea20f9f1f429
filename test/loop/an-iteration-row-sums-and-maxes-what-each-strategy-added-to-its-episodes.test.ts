// An iteration's metrics row says what the strategies that ran its episodes added to their results,
// under each strategy's own name: how many episodes and successes, and the sum and largest of each
// number it declared (a search's rollouts, and how many successes came after a failed rollout:
// what going back found). The loop knows no strategy; an iteration without one has no such part.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeStrategies } from '../../src/loop/index.js';
import type { EpisodeResultMessage, StrategyExtras } from '../../src/protocol/index.js';

const result = (id: number, reward: number, extras?: StrategyExtras): EpisodeResultMessage => ({
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
  ...(extras ? { extras } : {}),
});

const search = (rollouts: number, afterDeadEnds: 0 | 1, bestValue: number | null): StrategyExtras =>
  Object.entries({ rollouts, cells: 3, successAfterDeadEnds: afterDeadEnds, bestValue }).map(
    ([name, value]) => ({ strategy: 'search', name, value }),
  );

test("each strategy's numbers are summed and maxed under its name, successes after dead ends among them", () => {
  const summary = summarizeStrategies([
    result(1, 1, search(1, 0, 0.25)),
    result(2, 1, search(4, 1, null)),
    result(3, 1, search(2, 1, 0.75)),
    result(4, 0, search(6, 0, 0.125)),
    result(5, 1, [{ strategy: 'test-time search', name: 'finished', value: 2 }]),
    result(6, 0),
  ]);
  assert.deepEqual(summary, {
    search: {
      episodes: 4,
      successes: 3,
      sum: { rollouts: 13, cells: 12, successAfterDeadEnds: 2, bestValue: 1.125 },
      max: { rollouts: 6, cells: 3, successAfterDeadEnds: 1, bestValue: 0.75 },
    },
    'test-time search': { episodes: 1, successes: 1, sum: { finished: 2 }, max: { finished: 2 } },
  });
});

test('a collection without a strategy adding numbers has no strategy summary', () => {
  assert.equal(summarizeStrategies([result(1, 1), result(2, 0)]), null);
});
