// A status snapshot as the supervisor sends it, for tests that render the live view over one.
import type { StatusSnapshot, WorkerSnapshot } from '../../src/protocol/index.js';

export const envWorker = (
  id: string,
  counters: Record<string, number>,
  labels: Record<string, string> = {},
): WorkerSnapshot => ({
  role: 'env',
  id,
  state: 'ready',
  restarts: 0,
  lastHeartbeatMs: 100,
  lastError: null,
  rejectedFrames: 0,
  counters,
  labels,
});

export const statusSnapshot = (
  workers: WorkerSnapshot[],
  over: Partial<StatusSnapshot> = {},
): StatusSnapshot => ({
  runId: 'r',
  state: 'running',
  reason: null,
  iteration: 1,
  policyVersion: 1,
  horizon: 10,
  startedAt: 0,
  uptimeMs: 1000,
  rejectedFrames: 0,
  workers,
  iterations: 10,
  phase: 'collect',
  phaseProgress: { done: 1, total: 32 },
  replay: { seen: 1, kept: 1 },
  episodes: { done: 1, success: 1 },
  backend: 'wasm',
  ...over,
});
