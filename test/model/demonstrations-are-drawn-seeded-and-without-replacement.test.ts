// learner.demos: the demos mixed into an iteration are drawn without replacement, the same ones
// for the same stream, and read with the pretrain command's reader and alignment, with the event
// loop let go while a long file loads.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { drawDemoSteps, loadDemoMix } from '../../src/model/index.js';
import { SeededRandom } from '../../src/util/index.js';
import { projectRoot } from '../../src/util/paths.js';

const FIXTURE = path.join(projectRoot, 'test/fixtures/pretrain/oracle-demos.jsonl');

test('a draw takes distinct demos, repeats for the same seed and stops at what the file holds', async () => {
  const mix = await loadDemoMix(FIXTURE, { horizon: 30, skipOverwrittenEdits: true });
  assert.equal(mix.demos.length, 4);
  assert.equal(mix.steps, 9);
  const stepsOf = new Map(mix.demos.map((d) => [d[0]!.input.intent, d.length]));

  const draw = (seed: number, count: number) => drawDemoSteps(mix, count, new SeededRandom(seed));
  const three = draw(1, 3);
  assert.equal(three.trajectories, 3);
  const intents = new Set(three.steps.map((s) => s.input.intent));
  assert.equal(intents.size, 3, 'three different demos');
  assert.equal(
    three.steps.length,
    [...intents].reduce((n, intent) => n + stepsOf.get(intent)!, 0),
    'every step of each drawn demo',
  );
  assert.deepEqual(
    draw(1, 3).steps.map((s) => s.action),
    three.steps.map((s) => s.action),
  );
  const others = [2, 3, 4, 5, 6].map((seed) =>
    [...new Set(draw(seed, 3).steps.map((s) => s.input.intent))].sort(),
  );
  assert.ok(
    others.some((o) => o.join('|') !== [...intents].sort().join('|')),
    'other seeds draw other demos',
  );
  const all = draw(1, 10);
  assert.equal(all.trajectories, 4);
  assert.equal(all.steps.length, 9);
  // the draw works on a copy, and an iteration's steps are the very objects loaded (encoded once)
  assert.equal(mix.demos.length, 4);
  assert.ok(all.steps.every((s) => mix.demos.some((d) => d.includes(s))));
});

test('loading many demonstrations lets timers run, as a learner’s heartbeats need', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-demo-mix-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
  const big = path.join(dir, 'big.jsonl');
  writeFileSync(big, `${Array.from({ length: 150 }, () => lines.join('\n')).join('\n')}\n`);
  let ticks = 0;
  let longestGapMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    ticks += 1;
  }, 10);
  const started = performance.now();
  const mix = await loadDemoMix(big, { horizon: 30, skipOverwrittenEdits: true, sliceMs: 20 });
  const tookMs = performance.now() - started;
  clearInterval(timer);
  assert.equal(mix.demos.length, 600);
  // Loading takes hundreds of milliseconds; a timer waiting all that time would be a learner
  // missing its heartbeats. The gap allows for one slice and a loaded machine.
  assert.ok(ticks >= 5, `${ticks} timer ticks in ${tookMs.toFixed(0)} ms of loading`);
  assert.ok(
    longestGapMs < Math.max(500, tookMs / 4),
    `the event loop was held ${longestGapMs.toFixed(0)} ms`,
  );
});
