// Where an episode's time goes (src/episode, src/envs): a real MiniArena episode in real Chromium,
// asked for actions by a policy that takes 40 ms a step, reports its wall time split into waiting
// for the task, start, observe, policy, execute, score and the rest. The parts sum to the wall time
// measured around the episode, the named parts leave little to "other", each part is measured,
// and the worker's counters sum the same parts into a busy share.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ArenaSlot, closeSlots, openSlots, readSplit } from '../../src/arena/oracle/index.js';
import { loadConfig } from '../../src/config/index.js';
import type { Task } from '../../src/envs/index.js';
import { EpisodeRunner, type EpisodeWorker } from '../../src/episode/index.js';
import { countTiming, type TaskAssignmentMessage, timeSplitOf } from '../../src/protocol/index.js';
import { strategiesFor } from '../../src/strategies/index.js';
import { projectRoot } from '../../src/util/paths.js';

let slot: ArenaSlot;
let task: Task;
const POLICY_MS = 40;

before(async () => {
  [slot] = (await openSlots(1, { split: 'train', env: { actionFormat: 'tti' } })) as [ArenaSlot];
  const raw = readSplit('train')[0]!;
  task = slot.tasks.get(String(raw.task_id))!;
});
after(async () => {
  if (slot) await closeSlots([slot]);
});

test("an episode's time split sums to its wall time, and every part is measured", async () => {
  const config = loadConfig(path.join(projectRoot, 'configs', 'miniarena.yaml'), [
    'collect.stop_probes=false',
  ]);
  const counters: Record<string, number> = {};
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
    actTimeoutMs: 5000,
    task: () => ({ task, label: undefined }),
    beforeReset: () => slot.host.reset(),
    afterReset: () => undefined,
    store: async () => true,
    ask: async (request) => {
      await sleep(POLICY_MS);
      return {
        message: {
          type: 'act_reply',
          episodeId: request.episodeId,
          step: request.step,
          reply: 'Thought: look further down.\nAction: scroll [down]',
          policyVersion: 1,
        },
      };
    },
  };
  const runner = new EpisodeRunner(worker, strategiesFor(config));
  const assignment: TaskAssignmentMessage = {
    type: 'task_assignment',
    requestId: 0,
    episodeId: 'timed',
    taskFile: 'train.json',
    taskId: task.id,
    horizon: 3,
    minTry: 1,
    split: 'train',
    iteration: 1,
    greedy: false,
    temperature: 1,
    seed: 5,
    toReplay: true,
  };
  const began = performance.now();
  const result = await runner.run(assignment, 1, 25);
  const wallMs = performance.now() - began;
  const timing = result.timing;
  assert.ok(timing, 'the result carries its timing');
  assert.equal(result.steps, 3);
  assert.equal(timing.taskWaitMs, 25, 'the wait for the task is what the worker measured');
  const { taskWaitMs, otherMs, ...named } = timing;
  for (const [part, ms] of Object.entries(named)) assert.ok(ms > 0, `${part} is measured (${ms} ms)`);
  assert.ok(
    timing.policyMs >= 3 * POLICY_MS - 3,
    `the policy's ${3 * POLICY_MS} ms are there: ${timing.policyMs}`,
  );
  const within = Object.values(named).reduce((a, b) => a + b, 0) + otherMs;
  // The wall here is measured around the call, so it holds the parts and the scheduling around
  // them (tens of ms on a loaded machine): the parts are never more, and little less.
  assert.ok(
    within <= wallMs + 1 && wallMs - within <= 10 + 0.05 * wallMs,
    `parts ${within} ms against the wall's ${wallMs} ms`,
  );
  assert.ok(Math.abs(within - result.durationMs) <= 1, 'the parts sum to the reported duration');
  assert.ok(otherMs <= 0.15 * wallMs, `the named parts leave little to other: ${otherMs} of ${wallMs} ms`);

  countTiming(counters, timing);
  const split = timeSplitOf(counters);
  assert.ok(split, 'the counters hold a split');
  assert.ok(Math.abs(split.busy - within / (within + taskWaitMs)) < 0.01, `busy share ${split.busy}`);
});
