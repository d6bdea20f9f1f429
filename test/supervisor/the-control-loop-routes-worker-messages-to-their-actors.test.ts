// The control loop (src/actors/supervisor/control-loop.ts) on a real ROUTER, with real actors in the
// worker actors' place and a real DEALER as the worker: no tti-run process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start, stop } from 'nact';
import { serveControl, type WorkerEntry } from '../../src/actors/supervisor/control-loop.js';
import { Channel, Inbound, RejectedFrames, type TrainedMessage } from '../../src/protocol/index.js';
import { eventually, recordingLogger, recordingWorker, SocketDir } from '../helpers/in-process.js';

test('register, heartbeat, errors and byes reach the worker actor; strangers and wrong roles are refused; trained goes to the coordinator', {
  timeout: 30_000,
}, async () => {
  const dir = new SocketDir();
  const system = start();
  const { log } = recordingLogger();
  const rejected = new RejectedFrames(() => undefined);
  const control = Channel.create('control', 'router', Inbound.controlToSupervisor, rejected);
  const worker = Channel.create('control', 'dealer', Inbound.controlToWorker, rejected);
  try {
    const env = recordingWorker(system, 'env-0');
    const learner = recordingWorker(system, 'learner-0');
    const workers = new Map<string, WorkerEntry>([
      ['env-0', { spec: { role: 'env', id: 'env-0' }, ref: env.ref }],
      ['learner-0', { spec: { role: 'learner', id: 'learner-0' }, ref: learner.ref }],
    ]);
    const trained: TrainedMessage[] = [];
    await control.bind(dir.endpoint('control'));
    const loop = serveControl(control, workers, (m) => trained.push(m), log);
    worker.connect(dir.endpoint('control'));

    await worker.send({ type: 'register', role: 'env', workerId: 'env-0', pid: 4242, hostname: 'here' });
    await worker.send({
      type: 'heartbeat',
      workerId: 'env-0',
      stats: { rejectedFrames: 0, busy: false, counters: { hostDown: 0 }, labels: {} },
    });
    await worker.send({ type: 'worker_error', workerId: 'env-0', message: 'tab crashed', fatal: false });
    await worker.send({ type: 'bye', workerId: 'env-0', reason: 'shutdown' });
    await eventually(() => env.got.length === 4, 5000, 'four messages at env-0');
    assert.deepEqual(
      env.got.map((m) => m.kind),
      ['register', 'heartbeat', 'error', 'bye'],
    );
    const register = env.got[0] as { kind: 'register'; pid: number; peer: Buffer };
    assert.equal(register.pid, 4242);
    assert.ok(Buffer.isBuffer(register.peer), 'the actor gets the peer to answer');

    // a worker the run does not have, and a worker that claims another role: refused, no actor told
    await worker.send({ type: 'register', role: 'env', workerId: 'env-9', pid: 1, hostname: 'x' });
    const stranger = await worker.receive();
    assert.deepEqual(stranger?.message, { type: 'refused', reason: "no worker 'env-9' in this run" });
    await worker.send({ type: 'register', role: 'env', workerId: 'learner-0', pid: 1, hostname: 'x' });
    const wrongRole = await worker.receive();
    assert.deepEqual(wrongRole?.message, { type: 'refused', reason: 'learner-0 is a learner worker' });
    assert.equal(learner.got.length, 0);

    const done: TrainedMessage = {
      type: 'trained',
      workerId: 'learner-0',
      iteration: 3,
      policyVersion: 3,
      trajectories: 5,
      samples: 40,
      skipped: 0,
      loss: 0.5,
      samplesPerSec: 100,
      checkpoint: null,
      durationMs: 10,
    };
    await worker.send(done);
    await eventually(() => trained.length === 1, 5000, 'trained at the coordinator');
    assert.equal(trained[0]?.iteration, 3);
    assert.equal(learner.got.length, 0, 'trained is not a message for the learner actor');

    control.close();
    await loop;
  } finally {
    worker.close();
    control.close();
    stop(system);
    dir.remove();
  }
});
