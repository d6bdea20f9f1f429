// The live view (train, attach) sums the env workers' search counters and shows the searches in
// flight, and what stop probes scored, kept and refused; a run without either shows neither line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderRun } from '../../src/cli/console-view.js';
import type { StatusSnapshot, WorkerSnapshot } from '../../src/protocol/index.js';

const worker = (
  id: string,
  counters: Record<string, number>,
  labels: Record<string, string>,
): WorkerSnapshot => ({
  role: 'env',
  id,
  pid: 1,
  state: 'ready',
  restarts: 0,
  lastHeartbeatMs: 100,
  lastError: null,
  rejectedFrames: 0,
  counters,
  labels,
});

const snapshot = (workers: WorkerSnapshot[]): StatusSnapshot => ({
  runId: 'r',
  pid: 1,
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
});

test('the search line sums rollouts, pages, diverged replays and successes, and names searches in flight', () => {
  const text = renderRun(
    snapshot([
      worker(
        'env-0',
        {
          searchRollouts: 7,
          searchCells: 12,
          searchDiverged: 1,
          searchSuccesses: 3,
          searchSuccessesAfterDeadEnds: 2,
          exploratoryWithDeadEnds: 1,
          exploratoryBackSteps: 2,
        },
        { search: '3 rollouts, 4 pages, depth 2' },
      ),
      worker('env-1', { searchRollouts: 5, searchCells: 3, searchDiverged: 0, searchSuccesses: 1 }, {}),
    ]),
    [],
    { iterations: 10, previous: null },
  );
  const line = text.split('\n').find((l) => l.startsWith('search'));
  assert.ok(line, text);
  assert.match(line, /12 rollouts {3}15 pages found {3}1 replays diverged/);
  assert.match(line, /4 successes \(2 after dead ends, 1 kept with 2 steps back\)/);
  assert.match(line, /now env-0: 3 rollouts, 4 pages, depth 2$/);
});

test('a search that keeps no dead end says only how many successes came after one', () => {
  const text = renderRun(
    snapshot([worker('env-0', { searchRollouts: 4, searchCells: 4, searchSuccesses: 2 }, {})]),
    [],
    { iterations: 10, previous: null },
  );
  const line = text.split('\n').find((l) => l.startsWith('search'));
  assert.match(line ?? '', /2 successes \(0 after dead ends\)$/);
});

test('a run that does not search shows no search line', () => {
  const text = renderRun(snapshot([worker('env-0', { episodes: 3 }, {})]), [], {
    iterations: 10,
    previous: null,
  });
  assert.ok(!text.split('\n').some((l) => l.startsWith('search')), text);
  assert.ok(!text.split('\n').some((l) => l.startsWith('probes')), text);
});

test('the probes line sums answers scored, successes kept and the passes refused, by why', () => {
  const probed = (probes: number, hits: number, unevidenced: number, lucky: number, counts: number) => ({
    stopProbes: probes,
    stopProbeHits: hits,
    stopProbesUnevidenced: unevidenced,
    stopProbesLucky: lucky,
    stopProbesGuessable: counts,
  });
  const text = renderRun(
    snapshot([worker('env-0', probed(400, 3, 2, 1, 30), {}), worker('env-1', probed(100, 1, 0, 0, 5), {})]),
    [],
    { iterations: 10, previous: null },
  );
  const line = text.split('\n').find((l) => l.startsWith('probes'));
  assert.ok(line, text);
  assert.match(line, /500 answers scored {3}4 successes kept/);
  assert.match(line, /2 beside nothing the task names, 1 lucky, 35 counts left to the policy/);
});
