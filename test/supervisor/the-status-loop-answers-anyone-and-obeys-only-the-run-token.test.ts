// The status loop (src/actors/supervisor/status-loop.ts), the run's API for the CLI, on a real
// ROUTER with the CLI's real status client: no tti-run process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EpisodeQueue } from '../../src/actors/supervisor/episode-queue.js';
import type { RunView } from '../../src/actors/supervisor/run-actor.js';
import { StatusLoop } from '../../src/actors/supervisor/status-loop.js';
import {
  Channel,
  type Endpoints,
  Inbound,
  RejectedFrames,
  type WorkerSnapshot,
} from '../../src/protocol/index.js';
import { StatusClient } from '../../src/run/index.js';
import { recordingLogger, SocketDir } from '../helpers/in-process.js';

const worker = (
  role: WorkerSnapshot['role'],
  id: string,
  extra: Partial<WorkerSnapshot>,
): WorkerSnapshot => ({
  role,
  id,
  state: 'ready',
  restarts: 0,
  lastHeartbeatMs: 10,
  lastError: null,
  rejectedFrames: 0,
  counters: {},
  labels: {},
  ...extra,
});

test('a snapshot for anyone, composed from the run, its workers and its tasks; stop and faults only with the token', {
  timeout: 30_000,
}, async () => {
  const dir = new SocketDir();
  const { log, lines } = recordingLogger();
  const rejected = new RejectedFrames(() => undefined);
  const status = Channel.create('status', 'router', Inbound.statusToSupervisor, rejected);
  const run: RunView = { state: 'running', reason: null, iteration: 3, policyVersion: 2, horizon: 20 };
  const stops: string[] = [];
  const faults: string[] = [];
  let client: StatusClient | null = null;
  try {
    await status.bind(dir.endpoint('status'));
    const loop = new StatusLoop(
      status,
      { value: 'the-secret', file: '/runs/x/token' },
      {
        runId: 'quick-1',
        startedAt: Date.now() - 5000,
        iterations: 10,
        run: async () => run,
        workers: async () => [
          worker('replay', 'replay-0', { counters: { kept: 6 } }),
          worker('inference', 'inference-0', { labels: { backend: 'wasm' } }),
        ],
        rejected,
        queue: new EpisodeQueue(),
        tasks: { episodes: { done: 30, success: 7 }, replaySeen: 25 },
        keptBefore: () => 1,
      },
      {
        stop: () => stops.push('stop'),
        fault: async (workerId, fault) => {
          if (workerId !== 'env-0') return null;
          faults.push(fault);
          return `env-0: ${fault} injected`;
        },
      },
      log,
    );
    loop.phase = 'collect';
    const endpoint = dir.endpoint('status');
    const endpoints: Endpoints = {
      control: endpoint,
      tasks: endpoint,
      status: endpoint,
      events: endpoint,
      act: {},
      trajectories: endpoint,
      samples: endpoint,
      weights: endpoint,
      probe: {},
    };
    client = new StatusClient({
      pid: process.pid,
      runId: 'quick-1',
      startedAt: 0,
      statusEndpoint: endpoint,
      eventsEndpoint: endpoint,
      endpoints,
    });

    const reply = await client.request({ type: 'status_request' }, 5000);
    assert.equal(reply?.type, 'status_reply');
    const snapshot = reply?.type === 'status_reply' ? reply.snapshot : null;
    assert.ok(snapshot);
    assert.equal(snapshot.runId, 'quick-1');
    assert.equal(snapshot.state, 'running');
    assert.equal(snapshot.iteration, 3);
    assert.equal(snapshot.phase, 'collect');
    assert.deepEqual(snapshot.replay, { seen: 25, kept: 6 }, "replay's own count of kept ones");
    assert.deepEqual(snapshot.episodes, { done: 30, success: 7 });
    assert.equal(snapshot.backend, 'wasm');
    assert.ok(snapshot.uptimeMs >= 5000);

    const refused = await client.request({ type: 'stop_request', token: 'guess' }, 5000);
    assert.deepEqual(refused, {
      type: 'control_reply',
      ok: false,
      message:
        "refused: stop_request needs this run's token (the file /runs/x/token, readable by the run's owner)",
    });
    assert.deepEqual(stops, []);
    assert.match(lines.join('\n'), /refused a stop_request: wrong run token/);

    const fault = await client.request(
      { type: 'inject_fault', token: 'the-secret', workerId: 'env-0', fault: 'crash' },
      5000,
    );
    assert.deepEqual(fault, { type: 'control_reply', ok: true, message: 'env-0: crash injected' });
    const nobody = await client.request(
      { type: 'inject_fault', token: 'the-secret', workerId: 'env-7', fault: 'crash' },
      5000,
    );
    assert.deepEqual(nobody, { type: 'control_reply', ok: false, message: "no worker 'env-7'" });
    assert.deepEqual(faults, ['crash']);

    const stopped = await client.request({ type: 'stop_request', token: 'the-secret' }, 5000);
    assert.deepEqual(stopped, { type: 'control_reply', ok: true, message: 'stopping' });
    assert.deepEqual(stops, ['stop']);
    status.close();
    await loop.done;
  } finally {
    client?.close();
    status.close();
    dir.remove();
  }
});
