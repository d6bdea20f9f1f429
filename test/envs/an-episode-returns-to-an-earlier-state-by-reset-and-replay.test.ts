// Going back to an earlier state (issue 23, what search builds on): MiniArena's oracle solves a
// long task in real Chromium while every step is recorded with its element named by role, name and
// rank; then, on the same host reset to its seed, replayPrefix returns to the page after step k —
// the same URL and the same page, though the browser has numbered its elements anew — and the
// episode goes on from there to the same verdict. A step whose element is gone stops the replay
// and says which.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  type ArenaSlot,
  closeSlots,
  type MiniArenaTask,
  ORACLE_ENV,
  ORACLE_HORIZON,
  openSlots,
  readSplit,
  recordForReplay,
} from '../../src/arena/index.js';
import type { BrowserEnv, Observation, ReplayStep } from '../../src/envs/index.js';
import { actionOnPage, replayPrefix } from '../../src/envs/index.js';

let slot: ArenaSlot;
before(async () => {
  [slot] = (await openSlots(1, { split: 'train', env: ORACLE_ENV })) as [ArenaSlot];
});
after(async () => {
  if (slot) await closeSlots([slot]);
});

/** What a page is, without the ids the browser gave its elements this time. */
const pageOf = (o: Observation | null) =>
  o === null ? null : { url: o.url, elements: o.nodes.map((n) => `${n.role} ${n.name}`) };

const record = (raw: MiniArenaTask) => recordForReplay(slot, raw);

test('replaying the first k steps on a reset host returns to the page after step k, and the episode finishes from there', async () => {
  // a long tier-3 train task: several pages, forms and element ids to find again
  const raw = readSplit('train').find((t) => t.miniarena.tier === 3 && (t.miniarena.oracle_steps ?? 0) >= 8)!;
  assert.ok(raw, 'a tier-3 train task of 8 steps or more');
  const episode = await record(raw);
  assert.ok(episode.success, 'the oracle solved it');
  const n = episode.steps.length;
  assert.ok(episode.steps.some((s) => s.element !== null) && n >= 8, `${n} steps`);
  const task = slot.tasks.get(String(raw.task_id))!;

  const k = n - 1;
  await slot.host.reset();
  const back = await replayPrefix(slot.env, task, episode.steps.slice(0, k), { horizon: ORACLE_HORIZON });
  assert.equal(back.diverged, null, `step ${back.diverged?.step}: ${back.diverged?.why}`);
  assert.equal(back.replayed, k);
  assert.deepEqual(pageOf(back.observation), pageOf(episode.pages[k - 1]!), `the page after step ${k}`);
  // on from the restored state: the last recorded step ends the episode with the same verdict
  const [last] = (await replayFrom(slot.env, back.observation!, episode.steps.slice(k))) ?? [];
  assert.equal(last, true, 'the episode finished from the restored state with a success');
});

/** The remaining steps from an observation; the verdict's success, or null if it did not end. */
async function replayFrom(env: BrowserEnv, from: Observation, steps: readonly ReplayStep[]) {
  let obs: Observation | null = from;
  for (const s of steps) {
    if (obs === null) return null;
    const action = actionOnPage(s, obs.nodes);
    assert.ok(action, 'the element is on the restored page');
    const r = await env.step(action);
    if (r.done) return [r.record?.verdict.success ?? false] as const;
    obs = r.observation;
  }
  return null;
}

test('a step whose element is not on the page stops the replay, naming the step and the element', async () => {
  const raw = readSplit('train').find((t) => t.miniarena.tier === 1)!;
  const episode = await record(raw);
  const k = episode.steps.findIndex((s) => s.element !== null);
  assert.ok(k >= 0);
  const broken = episode.steps.map((s, i) =>
    i === k ? { ...s, element: { ...s.element!, name: 'no such element anywhere' } } : s,
  );
  await slot.host.reset();
  const task = slot.tasks.get(String(raw.task_id))!;
  const back = await replayPrefix(slot.env, task, broken, { horizon: ORACLE_HORIZON });
  await slot.env.abandon();
  assert.equal(back.replayed, k);
  assert.equal(back.diverged?.step, k);
  assert.match(back.diverged?.why ?? '', /no \S+ "no such element anywhere" #\d+ on http/);
});
