// Reproducible runs: two runs of one seed, side by side, one with one env worker and one with two
// (so episodes finish and reach replay in different orders, and inference batches differ), keep the
// same episodes, draw the same replay samples (smaller than what is kept, so the draw matters),
// report the same losses and end with byte-identical weights. Real processes, real Chromium on
// MiniArena pages; tasks any answer solves, so every episode is kept and trained on.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { EpisodeRecord } from '../../src/envs/index.js';
import { readReplayLog } from '../../src/replay/replay-log.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { RunFixture } from '../helpers/run-fixture.js';

interface Row {
  iteration: number;
  learner: { loss: number | null; trajectories: number } | null;
  train: { kept: number };
}

const rowsOf = (runDir: string): Row[] =>
  readFileSync(path.join(runDir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Row);

/** The newest checkpoint's weights. */
function lastWeights(runDir: string): Buffer {
  const dir = path.join(runDir, 'checkpoints');
  const newest = readdirSync(dir).sort().at(-1)!;
  return readFileSync(path.join(dir, newest, 'weights.bin'));
}

/** Each kept episode's actions, by its place in the run (the id without the run's own prefix). */
function keptActions(runDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of readReplayLog(path.join(runDir, 'replay'))) {
    const place = /-(i\d+-c\d+)$/.exec(t.episodeId)![1]!;
    // Element ids are the browser's own numbering: compare what was done, not which number it had.
    out.set(place, t.steps.map((s) => s.action.replace(/\[\d+\]/g, '[#]')).join(' → '));
  }
  return out;
}

/** What an episode at this place did, step by step, for a failure message: where the runs parted. */
function episodeAt(runDir: string, place: string): string {
  const dir = path.join(runDir, 'episodes');
  const id = readdirSync(dir).find((d) => d.endsWith(`-${place}`));
  if (id === undefined) return `${place}: no record`;
  const r = JSON.parse(readFileSync(path.join(dir, id, 'record.json'), 'utf8')) as EpisodeRecord;
  const steps = r.steps.map(
    (s) =>
      `  ${s.actionText} at ${s.url} (v${s.policyVersion}; ${/among \d+ candidate/.exec(s.reply ?? '')?.[0] ?? ''}; ${JSON.stringify(s.result)})`,
  );
  return [
    `${place}: answer ${JSON.stringify(r.answer)}, end ${r.endReason}, error ${r.error ?? 'none'}, ${r.verdict.why}`,
    ...steps,
  ].join('\n');
}

/** The places whose kept actions differ between two runs, each as both runs did it. */
function partings(a: string, b: string, keptA: Map<string, string>, keptB: Map<string, string>): string {
  const places = [...new Set([...keptA.keys(), ...keptB.keys()])].filter(
    (p) => keptA.get(p) !== keptB.get(p),
  );
  return places.map((p) => `run a ${episodeAt(a, p)}\nrun b ${episodeAt(b, p)}`).join('\n');
}

test('two runs of one seed with different numbers of env workers train byte-identical weights', async (t) => {
  const runs = [RunFixture.create(), RunFixture.create()];
  t.after(async () => {
    await Promise.all(runs.map((r) => r.cleanup()));
  });
  const sets = (envWorkers: number, runDir: string) => [
    ...tinyRun(writeAnyAnswerTasks(runDir, 6), 2),
    'seed=11',
    'rollout_size=8',
    // fewer than the 8 kept each iteration: replay's seeded draw decides what trains
    'actor_trajectories=5',
    `workers.env=${envWorkers}`,
  ];
  await Promise.all(runs.map((r, i) => r.startForeground(sets(i + 1, r.runDir), false)));
  const codes = await Promise.all(runs.map((r) => r.foregroundExit(240000)));
  for (const [i, code] of codes.entries())
    assert.equal(code, 0, `run ${i} exited with ${code}:\n${runs[i]!.foregroundOutput.slice(-3000)}`);

  const [a, b] = runs.map((r) => r.runDir) as [string, string];
  // The same episodes were kept, and each did the same things.
  const keptA = keptActions(a);
  assert.ok(keptA.size >= 10, `${keptA.size} kept episodes`);
  const keptB = keptActions(b);
  assert.deepEqual(keptB, keptA, partings(a, b, keptA, keptB));
  // Every iteration trained on a sample (5 of the kept) and the two runs' losses agree exactly.
  const rowsA = rowsOf(a);
  const rowsB = rowsOf(b);
  assert.equal(rowsA.length, 2);
  for (const row of rowsA) assert.equal(row.learner?.trajectories, 5);
  assert.ok(rowsA.every((row) => row.learner?.loss !== null));
  assert.deepEqual(
    rowsB.map((row) => row.learner?.loss),
    rowsA.map((row) => row.learner?.loss),
  );
  assert.ok(lastWeights(a).equals(lastWeights(b)), 'the final weights differ');
});
