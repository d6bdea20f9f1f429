// The task loop (src/actors/supervisor/task-loop.ts) on a real ROUTER with a real DEALER as the env
// worker, over the real episode queue: no tti-run process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EpisodeQueue, type EpisodeSpec } from '../../src/actors/supervisor/episode-queue.js';
import { TaskLoop } from '../../src/actors/supervisor/task-loop.js';
import { Channel, type EpisodeResultMessage, Inbound, RejectedFrames } from '../../src/protocol/index.js';
import { episodeSpec } from '../helpers/episodes.js';
import { recordingLogger, SocketDir } from '../helpers/in-process.js';

const episode = episodeSpec;

const result = (spec: EpisodeSpec, reward: number, requestId: number): EpisodeResultMessage => ({
  type: 'episode_result',
  workerId: 'env-0',
  requestId,
  episodeId: spec.episodeId,
  taskFile: spec.taskFile,
  taskId: spec.taskId,
  split: spec.split,
  iteration: spec.iteration,
  reward,
  steps: 3,
  answer: 'Done',
  endReason: 'answer',
  kept: reward > 0,
  policyVersions: [0],
  durationMs: 100,
});

test('episodes go out on request, results are acked and counted, a returned one goes to the next worker, and a stop hands out nothing', {
  timeout: 30_000,
}, async () => {
  const dir = new SocketDir();
  const { log, lines } = recordingLogger();
  const events: string[] = [];
  const rejected = new RejectedFrames(() => undefined);
  const tasks = Channel.create('tasks', 'router', Inbound.tasksToSupervisor, rejected);
  const env = Channel.create('tasks', 'dealer', Inbound.tasksToEnv, rejected);
  const queue = new EpisodeQueue();
  try {
    await tasks.bind(dir.endpoint('tasks'));
    const loop = new TaskLoop(tasks, queue, {
      totals: { episodes: 10, successes: 4, seen: 7 },
      episodeTimeoutMs: 60_000,
      log,
      publish: (kind, message) => events.push(`${kind}: ${message}`),
    });
    env.connect(dir.endpoint('tasks'));
    const ask = async (requestId: number, message?: object) => {
      await env.send(message ?? { type: 'task_request', workerId: 'env-0', requestId });
      return (await env.receive())?.message;
    };

    assert.deepEqual(await ask(1), { type: 'no_task', requestId: 1, retryAfterMs: 200 }, 'no phase yet');
    const phase = queue.run([episode(1), episode(2)]);
    assert.deepEqual(await ask(2), { type: 'task_assignment', requestId: 2, ...episode(1) });
    assert.deepEqual(await ask(3), { type: 'task_assignment', requestId: 3, ...episode(2) });

    // its host is down: the worker gives episode 2 back, and it is the next one handed out
    const back = await ask(4, {
      type: 'episode_returned',
      workerId: 'env-0',
      requestId: 4,
      episodeId: episode(2).episodeId,
      reason: 'host down',
    });
    assert.deepEqual(back, { type: 'result_ack', requestId: 4, episodeId: episode(2).episodeId });
    assert.deepEqual(events, [`requeue: ${episode(2).episodeId} of env-0 requeued: host down`]);
    assert.deepEqual(await ask(5), { type: 'task_assignment', requestId: 5, ...episode(2) });

    assert.deepEqual(await ask(6, result(episode(1), 1, 6)), {
      type: 'result_ack',
      requestId: 6,
      episodeId: episode(1).episodeId,
    });
    // a duplicate is acked but not counted twice
    await ask(7, result(episode(1), 1, 7));
    await ask(8, result(episode(2), 0, 8));
    assert.equal((await phase).length, 2, 'the phase resolved with both results');
    assert.deepEqual(loop.episodes, { done: 12, success: 5 }, 'counted on top of the resumed totals');
    assert.equal(loop.replaySeen, 9, 'collection episodes went to replay');

    // an env worker that dies holding an episode: it goes back to the queue
    const next = queue.run([episode(3)]);
    await ask(9);
    loop.workerDied('env-0');
    assert.match(lines.join('\n'), /env-0 died holding 1 episode\(s\)/);
    assert.deepEqual(await ask(10), { type: 'task_assignment', requestId: 10, ...episode(3) });

    loop.stop();
    assert.deepEqual(await ask(11), { type: 'no_task', requestId: 11, retryAfterMs: 200 }, 'stopping');
    void next;
    tasks.close();
    await loop.done;
  } finally {
    env.close();
    tasks.close();
    dir.remove();
  }
});

test('an episode running past its worst case is requeued for another worker', {
  timeout: 20_000,
}, async () => {
  const dir = new SocketDir();
  const { log, lines } = recordingLogger();
  const rejected = new RejectedFrames(() => undefined);
  const tasks = Channel.create('tasks', 'router', Inbound.tasksToSupervisor, rejected);
  const queue = new EpisodeQueue();
  try {
    await tasks.bind(dir.endpoint('tasks'));
    const loop = new TaskLoop(tasks, queue, {
      totals: { episodes: 0, successes: 0, seen: 0 },
      // the grace after the timeout is a minute: a timeout far in the past makes it due now
      episodeTimeoutMs: -60_000,
      log,
      publish: () => undefined,
      staleCheckMs: 20,
    });
    void queue.run([episode(1)]);
    assert.ok(queue.next('env-0'));
    const deadline = Date.now() + 5000;
    while (!lines.some((l) => l.includes('requeued')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    assert.match(lines.join('\n'), /1 episode\(s\) ran past -60000 ms; requeued/);
    assert.equal(queue.next('env-1')?.episodeId, episode(1).episodeId);
    loop.stop();
  } finally {
    tasks.close();
    dir.remove();
  }
});
