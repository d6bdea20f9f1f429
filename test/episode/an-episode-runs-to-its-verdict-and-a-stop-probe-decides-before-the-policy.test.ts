// The episode runner (src/episode) on MiniArena in real Chromium, asked for actions as an env
// worker asks inference (here a policy that always scrolls, answering each request at once): a
// plain episode acts until the horizon and its trajectory holds every step, each request naming
// the trainable policy and carrying the trail so far; with stop probes (src/strategies) the price
// on the page is found before the policy is asked, and the episode ends on it. Every counter the
// runs keep is the runner's own or one a strategy declares.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type ArenaSlot, closeSlots, openSlots, readSplit } from '../../src/arena/oracle/index.js';
import { loadConfig } from '../../src/config/index.js';
import type { Task } from '../../src/envs/index.js';
import { EpisodeRunner, type EpisodeWorker } from '../../src/episode/index.js';
import type {
  ActReplyMessage,
  ActRequestMessage,
  TaskAssignmentMessage,
  TrajectoryMessage,
} from '../../src/protocol/index.js';
import { strategiesFor } from '../../src/strategies/index.js';
import { mixSeeds } from '../../src/util/index.js';
import { projectRoot } from '../../src/util/paths.js';

let slot: ArenaSlot;
let task: Task;

before(async () => {
  [slot] = (await openSlots(1, { split: 'train', env: { actionFormat: 'tti' } })) as [ArenaSlot];
  // a price task started on its product page, where the price shows
  const raw = readSplit('train').find((r) => r.miniarena.template === 'shop_price')!;
  const evidence = raw.miniarena.evidence_urls[0]!.replace(
    /__SHOPPING__/,
    slot.host.placeholders.__SHOPPING__,
  );
  task = { ...slot.tasks.get(String(raw.task_id))!, startUrls: [evidence] };
});
after(async () => {
  if (slot) await closeSlots([slot]);
});

const RUNNER_COUNTERS = ['steps', 'episodes', 'successes', 'unscored', 'promptTokens', 'completionTokens'];

function runnerWith(sets: string[]) {
  const config = loadConfig(path.join(projectRoot, 'configs', 'miniarena.yaml'), sets);
  const asked: ActRequestMessage[] = [];
  const stored: TrajectoryMessage[] = [];
  const counters: Record<string, number> = {};
  const strategies = strategiesFor(config);
  const worker: EpisodeWorker = {
    workerId: 'env-0',
    signature: {},
    config,
    env: slot.env,
    counters,
    labels: {},
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
    recording: false,
    chatPolicy: false,
    featurizeHere: true,
    maxImages: 1,
    viewport: { width: 1280, height: 720 },
    offers: { stop: true },
    actTimeoutMs: 1000,
    task: () => ({ task, label: undefined }),
    beforeReset: () => slot.host.reset(),
    afterReset: () => undefined,
    store: async (t) => {
      stored.push(t);
      return true;
    },
    ask: async (request) => {
      asked.push(request);
      const message: ActReplyMessage = {
        type: 'act_reply',
        episodeId: request.episodeId,
        step: request.step,
        reply: 'Thought: the answer may be further down.\nAction: scroll [down]',
        policyVersion: 3,
      };
      return { message };
    },
  };
  return { runner: new EpisodeRunner(worker, strategies), asked, stored, counters, strategies };
}

const assignment = (episodeId: string): TaskAssignmentMessage => ({
  type: 'task_assignment',
  requestId: 0,
  episodeId,
  taskFile: 'train.json',
  taskId: task.id,
  horizon: 3,
  minTry: 1,
  split: 'train',
  iteration: 1,
  greedy: false,
  temperature: 1,
  seed: 17,
  toReplay: true,
});

/** Every counter kept is the runner's or declared by a strategy. */
function assertDeclared(counters: Record<string, number>, strategies: ReturnType<typeof strategiesFor>) {
  const declared = new Set([...RUNNER_COUNTERS, ...strategies.flatMap((s) => Object.keys(s.metrics))]);
  assert.deepEqual(
    Object.keys(counters).filter((k) => !declared.has(k)),
    [],
    'counters no strategy declares',
  );
  for (const s of strategies)
    for (const [key, words] of Object.entries(s.metrics))
      assert.ok(words.length > 0 && !/[A-Z]/.test(words[0]!), `${s.name}: ${key} is said in words`);
}

test('a plain episode acts until the horizon, each request carrying the trail so far', async () => {
  const { runner, asked, stored, counters, strategies } = runnerWith(['collect.stop_probes=false']);
  const result = await runner.run(assignment('plain'), 5);
  assert.equal(result.endReason, 'horizon');
  assert.equal(result.reward, 0);
  assert.equal(result.steps, 3);
  assert.deepEqual(result.policyVersions, [3]);
  assert.equal(result.requestId, 5);
  assert.deepEqual(
    asked.map((r) => [r.policy, r.step, r.policy === 'tfjs' ? r.trail.length : -1, r.seed]),
    [0, 1, 2].map((step) => ['tfjs', step, step, mixSeeds(17, step)]),
  );
  assert.ok(
    asked.every((r) => r.policy === 'tfjs' && r.modelInput !== undefined),
    'featurized where the page is',
  );
  assert.equal(stored.length, 1, 'a collection episode goes to replay, failed or not');
  assert.equal(stored[0]!.steps.length, 3);
  assert.deepEqual(counters, { steps: 3, episodes: 1 });
  assertDeclared(counters, strategies);
});

test('with stop probes the price on the page ends the episode before the policy is asked', async () => {
  const { runner, asked, stored, counters, strategies } = runnerWith(['collect.stop_probes=true']);
  const result = await runner.run(assignment('probed'), 6);
  assert.equal(asked.length, 0, 'the policy was not asked');
  assert.equal(result.reward, 1, `the probed answer succeeds (${result.answer})`);
  assert.equal(result.steps, 1);
  assert.deepEqual(result.policyVersions, [0], 'a worker served no weights yet records v0');
  assert.match(stored[0]!.steps[0]!.reply, /^Thought: stopping here with this answer was scored a success/);
  assert.equal(counters.stopProbeHits, 1);
  assert.ok((counters.stopProbes ?? 0) > 1, `answers scored: ${counters.stopProbes}`);
  assertDeclared(counters, strategies);
  // an eval episode is not probed: the policy acts from the first step
  const evalRun = await runner.run({ ...assignment('eval'), greedy: true, toReplay: false }, 7);
  assert.equal(asked.length, 3);
  assert.equal(evalRun.reward, 0);
  assert.equal(counters.stopProbeHits, 1);
  // Once served v3, a probe's answer on the first page is recorded under v3, not v0: under a
  // bounded policy lag a v0 step would make this kept success stale and left out of training.
  const later = await runner.run(assignment('probed-later'), 8);
  assert.equal(later.reward, 1);
  assert.deepEqual(later.policyVersions, [3]);
  assert.equal(stored.at(-1)!.steps[0]!.policyVersion, 3);
});
