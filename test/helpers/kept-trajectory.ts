// A kept trajectory to seed replay with, so that a test run's learner has something to train on
// whatever the untrained policy manages in a few episodes.
import assert from 'node:assert/strict';
import { buildCandidates, type PolicyInput } from '../../src/model/index.js';
import type { Trajectory } from '../../src/protocol/index.js';

/** One successful one-step episode: the price answered on a product page. */
export function seededSuccess(): Trajectory {
  const input: PolicyInput = {
    intent: 'What is the price of the Blue Mug?',
    url: 'http://127.0.0.1/shop/product/blue-mug',
    nodes: {
      ids: [1, 2, 3, 4],
      roles: ['RootWebArea', 'heading', 'StaticText', 'link'],
      names: ['Blue Mug', 'Blue Mug', '$12.50', 'Add to Cart'],
      depths: [0, 1, 1, 1],
      inViewport: [1, 1, 1, 1],
    },
    history: [],
    step: 0,
    horizon: 10,
    note: null,
  };
  const answer = buildCandidates(input).find((c) => c.kind === 'answer' && c.text.includes('12.50'));
  assert.ok(answer, 'the policy offers the price as an answer');
  return {
    type: 'trajectory',
    episodeId: 'seeded-1',
    taskId: 'seeded',
    site: 'shopping',
    intent: input.intent,
    horizon: 10,
    iteration: 0,
    reward: 1,
    answer: '$12.50',
    steps: [
      {
        observation: "[1] RootWebArea 'Blue Mug'",
        url: input.url,
        nodes: input.nodes,
        note: null,
        reply: `Thought: the price is on the page.\nAction: ${answer.action}`,
        action: 'stop [$12.50]',
        policyVersion: 0,
      },
    ],
  };
}
