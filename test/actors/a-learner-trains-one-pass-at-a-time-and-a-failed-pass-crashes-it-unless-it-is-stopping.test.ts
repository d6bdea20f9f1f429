// The learner's command queue (src/actors/roles/training-queue.ts), shared by the tfjs learner and
// the external one: passes never overlap, a re-publication waits for the running pass, and a failed
// pass crashes the worker (so the supervisor restarts it from its checkpoint) unless it is stopping.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type TrainCommand, trainingQueue } from '../../src/actors/roles/training-queue.js';

const train = (iteration: number): TrainCommand => ({
  type: 'command',
  command: 'train',
  iteration,
  policyVersion: iteration - 1,
});

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

test('passes run one at a time, in order, and a re-publication waits for the running pass', async () => {
  const events: string[] = [];
  const passes = new Map([1, 2].map((i) => [i, deferred()]));
  const queue = trainingQueue(
    { error: (m) => events.push(`error ${m}`) },
    async () => events.push('publish'),
    async (command) => {
      events.push(`start ${command.iteration}`);
      await passes.get(command.iteration)?.promise;
      events.push(`end ${command.iteration}`);
    },
    (error) => events.push(`crash ${error.message}`),
  );
  queue.onCommand(train(1));
  queue.onCommand(train(2));
  queue.onCommand({ type: 'command', command: 'publish_weights' });
  queue.onCommand({ type: 'command', command: 'act_endpoints', act: {} });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(events, ['start 1'], 'the second pass must wait for the first');
  passes.get(1)?.resolve();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(events, ['start 1', 'end 1', 'start 2']);
  passes.get(2)?.resolve();
  await queue.stop();
  assert.deepEqual(events, ['start 1', 'end 1', 'start 2', 'end 2', 'publish']);
});

test('a failed pass crashes the worker; while stopping it is only logged', async () => {
  const errors: string[] = [];
  const crashes: string[] = [];
  const pass = deferred();
  const queue = trainingQueue(
    { error: (m) => errors.push(m) },
    async () => {
      throw new Error('socket closed');
    },
    async (command) => {
      if (command.iteration === 1) throw new Error('out of memory');
      await pass.promise;
    },
    (error) => crashes.push(error.message),
  );
  queue.onCommand(train(1));
  // A failed re-publication is neither logged nor a crash: the next one will do.
  queue.onCommand({ type: 'command', command: 'publish_weights' });
  queue.onCommand(train(2));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(crashes, ['out of memory']);
  const stopped = queue.stop();
  pass.reject(new Error('killed by the stop'));
  await stopped;
  assert.deepEqual(crashes, ['out of memory'], 'a pass killed by a stop is not a crash');
  assert.deepEqual(errors, ['training failed: out of memory', 'training failed: killed by the stop']);
});
